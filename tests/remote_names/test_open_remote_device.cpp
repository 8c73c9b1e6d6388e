// open_device on remote names: dispatch before the PCI forms, identification through a fake bus server, the paths remote devices lack.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "fwops/Device.h"
#include "tests/remote/FakeBusServer.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t kHwIdAddress = 0xf0014;
constexpr std::uint32_t kConnectX4HwId = 0x209;

test::FakeBusOptions tcp_server() {
  test::FakeBusOptions options;
  options.tcp = true;
  return options;
}

TEST(OpenRemoteDevice, IdentifiesTheDeviceThroughTheServer) {
  test::FakeBusServer server(tcp_server());
  ASSERT_NE(server.port(), 0);
  server.memory[kHwIdAddress] = kConnectX4HwId;
  // Ends in an MST name: the remote form must win over the PCI one.
  const std::string name = "127.0.0.1:" + std::to_string(server.port()) + ",@dev@mst@mt4115_pciconf0";
  {
    auto device = open_device(name);
    ASSERT_TRUE(device.has_value()) << device.error().message();
    EXPECT_EQ(device->name(), name);
    EXPECT_EQ(device->info().name, std::string("ConnectX-4"));
    EXPECT_TRUE(device->access().costly_access());
    EXPECT_EQ(device->simulator(), nullptr);
    EXPECT_TRUE(device->pci_dir().empty());
    // What the bus protocol cannot carry fails cleanly instead of reaching PCI or in-band code.
    EXPECT_FALSE(device->running_firmware().has_value());
    const auto port = device->register_port();
    ASSERT_FALSE(port.has_value());
    EXPECT_EQ(port.error().code(), ErrorCode::NotSupported);
    const auto reset = device->reset();
    ASSERT_FALSE(reset.has_value());
    EXPECT_EQ(reset.error().code(), ErrorCode::NotSupported);
    EXPECT_EQ(device->mads_sent(), 0u);
    EXPECT_TRUE(device->commit().has_value());
    // The register reads go to the server.
    const auto hw = device->access().read32(kHwIdAddress);
    ASSERT_TRUE(hw.has_value()) << hw.error().message();
    EXPECT_EQ(*hw, kConnectX4HwId);
  }
  server.join();  // the Device hung up
  bool opened_by_path = false;
  for (const auto& request : server.requests)
    if (request.starts_with("O ") && request.ends_with(" /dev/mst/mt4115_pciconf0")) opened_by_path = true;
  EXPECT_TRUE(opened_by_path) << "no O request with the '@'-decoded device name";
}

TEST(OpenRemoteDevice, UnknownHwIdIsReportedWithTheName) {
  test::FakeBusServer server(tcp_server());
  ASSERT_NE(server.port(), 0);
  server.memory[kHwIdAddress] = 0x1234;
  const std::string name = "127.0.0.1:" + std::to_string(server.port()) + ",dev";
  const auto device = open_device(name);
  ASSERT_FALSE(device.has_value());
  EXPECT_NE(device.error().message().find(name), std::string::npos) << device.error().message();
}

TEST(OpenRemoteDevice, MalformedRemoteNameIsInvalidArgument) {
  for (const char* name : {"host:0,dev", "host:65536,dev", "host:x,dev", ":23108,dev", "host:23108,"}) {
    const auto device = open_device(name);
    ASSERT_FALSE(device.has_value()) << name;
    EXPECT_EQ(device.error().code(), ErrorCode::InvalidArgument) << name;
    EXPECT_NE(device.error().message().find("remote device name"), std::string::npos) << device.error().message();
  }
}

TEST(OpenRemoteDevice, NothingListeningFailsQuickly) {
  DeviceOpenOptions options;
  options.remote_timeout = 3000ms;
  const auto start = std::chrono::steady_clock::now();
  const auto device = open_device("127.0.0.1:1,dev", options);
  ASSERT_FALSE(device.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_NE(device.error().message().find("127.0.0.1:1,dev"), std::string::npos) << device.error().message();
}

}  // namespace
}  // namespace openflint
