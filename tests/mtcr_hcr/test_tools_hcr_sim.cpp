// ToolsHcrRegisterPort end to end on the simulator: a ConnectX-3 running an FS2 image answers MGIR
// through its tools HCR (directly, and as Device::register_port over served PCI config space);
// a blank ConnectX-3 has no firmware to answer; a ConnectX-4 has no tools HCR at all.
#include <gtest/gtest.h>

#include <stdlib.h>

#include "fwops/Device.h"
#include "mtcr/registers/MgirRegister.h"
#include "mtcr/ToolsHcrRegisterPort.h"
#include "pcisim/FuseSysfs.h"
#include "sim/SimDevice.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr std::uint16_t kConnectX3HwId = 0x1f5;

AccessRegisterTlv mgir_query() {
  AccessRegisterTlv request;
  request.register_id = MgirRegister::kId;
  request.method = AccessRegisterTlv::kMethodQuery;
  request.data.assign(MgirRegister::kSize, 0);
  return request;
}

// A ConnectX-3 whose flash holds the connectx3-new sample (FS2) and runs it.
std::unique_ptr<sim::SimDevice> running_connectx3() {
  const auto image = read_file(sample_image("connectx3-new"));
  EXPECT_FALSE(image.empty()) << sample_image("connectx3-new");
  auto dev = device_running("connectx3", image);
  EXPECT_TRUE(dev->boot_state().running.has_value()) << "the sample image does not boot";
  return dev;
}

// The MGIR answer's hw id and version through `port`.
void expect_mgir_of(RegisterPort& port, const sim::SimDevice& dev) {
  auto answer = port.transact(mgir_query());
  ASSERT_TRUE(answer.has_value()) << answer.error().message();
  EXPECT_EQ(answer->status, 0);
  auto mgir = MgirRegister::decode(answer->data);
  ASSERT_TRUE(mgir.has_value()) << mgir.error().message();
  EXPECT_EQ(mgir->device_id, kConnectX3HwId);
  ASSERT_TRUE(dev.boot_state().running && dev.boot_state().running->fw_version);
  const FwVersion& v = *dev.boot_state().running->fw_version;
  EXPECT_EQ(mgir->major, v.major);
  EXPECT_EQ(mgir->minor, v.minor);
  EXPECT_EQ(mgir->subminor, v.subminor);
  EXPECT_EQ(mgir->psid, dev.boot_state().running->psid);
}

TEST(ToolsHcrSim, RunningConnectX3AnswersMgirThroughTheHcr) {
  auto dev = running_connectx3();
  ASSERT_NE(dev->info().tools_hcr, nullptr);
  ASSERT_NE(dev->tools_hcr(), nullptr);
  auto port = ToolsHcrRegisterPort::open(*dev, *dev->info().tools_hcr);
  ASSERT_TRUE(port.has_value()) << port.error().message();
  const std::uint64_t commands = dev->tools_hcr()->commands();
  expect_mgir_of(**port, *dev);
  EXPECT_EQ(dev->tools_hcr()->commands(), commands + 1);
  EXPECT_FALSE(dev->tools_hcr()->semaphore_held());
}

TEST(ToolsHcrSim, BlankConnectX3HasNoFirmwareToAnswer) {
  auto created = sim::SimDevice::create("connectx3");
  ASSERT_TRUE(created.has_value()) << created.error().message();
  auto& dev = **created;
  ASSERT_FALSE(dev.boot_state().running.has_value());
  // The semaphore and the CR mailbox are hardware: the port opens.
  auto port = ToolsHcrRegisterPort::open(dev, *dev.info().tools_hcr);
  ASSERT_TRUE(port.has_value()) << port.error().message();
  auto answer = (*port)->transact(mgir_query());
  ASSERT_FALSE(answer.has_value());
  EXPECT_EQ(answer.error().code(), ErrorCode::Io);
  EXPECT_NE(answer.error().message().find("bad system state"), std::string::npos) << answer.error().message();
  EXPECT_FALSE(dev.tools_hcr()->semaphore_held());
}

TEST(ToolsHcrSim, ConnectX4HasNoToolsHcr) {
  auto created = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(created.has_value()) << created.error().message();
  EXPECT_EQ((*created)->info().tools_hcr, nullptr);
  auto port = ToolsHcrRegisterPort::open(**created, kConnectX3ToolsHcr);
  ASSERT_FALSE(port.has_value());
  EXPECT_EQ(port.error().code(), ErrorCode::NotSupported) << port.error().message();
  EXPECT_NE(port.error().message().find("no tools HCR"), std::string::npos) << port.error().message();
}

// Device::register_port on a ConnectX-3 opened by PCI name (config space: the 0x58 window, no
// VSEC, so no ICMD) is the tools HCR over the device's CR-space access.
TEST(ToolsHcrSim, PciConnectX3RegisterPortIsTheToolsHcr) {
  TempDir run;
  TempDir sysfs;
  ::setenv("OPENFLINT_RUN_DIR", (run.path() / "run").c_str(), 1);
  auto dev = running_connectx3();
  pcisim::ServedDevice served;
  served.address = PciAddress{0, 0x81, 0, 0};
  served.device = dev.get();
  served.bar0_size = 0x100000;
  auto mounted = pcisim::FuseSysfs::mount(sysfs.path(), {served});
  if (!mounted && (mounted.error().code() == ErrorCode::NotSupported ||
                   mounted.error().code() == ErrorCode::PermissionDenied))
    GTEST_SKIP() << "FUSE mounting is not permitted here: " << mounted.error().message();
  ASSERT_TRUE(mounted.has_value()) << mounted.error().message();
  {
    DeviceOpenOptions options;
    options.sysfs_root = sysfs.path();
    auto device = open_pci_device("pciconf-" + served.address.to_string(), options);
    ASSERT_TRUE(device.has_value()) << device.error().message();
    ASSERT_EQ(device->info().hw_id, kConnectX3HwId);
    auto port = device->register_port();
    ASSERT_TRUE(port.has_value()) << port.error().message();
    EXPECT_NE(dynamic_cast<ToolsHcrRegisterPort*>(*port), nullptr);
    const std::uint64_t commands = dev->tools_hcr()->commands();
    expect_mgir_of(**port, *dev);
    EXPECT_EQ(dev->tools_hcr()->commands(), commands + 1);
    EXPECT_FALSE(dev->tools_hcr()->semaphore_held());
  }  // the Device closes its config file before the unmount
  (*mounted).reset();
}

}  // namespace
}  // namespace openflint::test
