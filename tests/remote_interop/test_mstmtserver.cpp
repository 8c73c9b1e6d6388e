// Interop: the Debian mstmtserver (mstflint 4.21) serving a simulated ConnectX-4 from a mount namespace, read by RemoteBusAccess.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "mtcr/pci/PciAddress.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "mtcr/remote/RemoteBusAccess.h"
#include "tests/remote_interop/MstmtserverFixture.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t kHwIdAddress = 0xf0014;
constexpr std::uint32_t kConnectX4HwId = 0x209;

class Mstmtserver : public test::MstmtserverFixture {
 protected:
  std::unique_ptr<RemoteBusAccess> open_remote() {
    auto connection = BusConnection::connect_tcp("127.0.0.1", port_, 2000ms);
    EXPECT_TRUE(connection.has_value()) << connection.error().message();
    if (!connection) return nullptr;
    auto access = RemoteBusAccess::open(std::move(connection).value(), "/dev/mst/mt4115_pciconf0", 10000ms);
    EXPECT_TRUE(access.has_value()) << access.error().message() << "\n" << server_log();
    return access ? std::move(access).value() : nullptr;
  }

  // The same register read through our local PCI path.
  std::uint32_t local_read(std::uint32_t address) {
    auto bdf = parse_pci_address("0000:03:00.0");
    EXPECT_TRUE(bdf.has_value());
    auto local = PciConfigAccess::open(*bdf, sysfs_);
    EXPECT_TRUE(local.has_value()) << local.error().message();
    if (!local) return 0;
    auto value = (*local)->read32(address);
    EXPECT_TRUE(value.has_value()) << value.error().message();
    return value ? *value : 0;
  }
};

TEST_F(Mstmtserver, ReadsTheHwIdLikeTheLocalPciPath) {
  if (!serve_device() || !start_mstmtserver()) return;
  const std::uint32_t local = local_read(kHwIdAddress);
  EXPECT_EQ(local & 0xffff, kConnectX4HwId);
  auto remote = open_remote();
  ASSERT_NE(remote, nullptr);
  EXPECT_EQ(remote->server_version(), kBusProtocolVersion);
  EXPECT_TRUE(remote->opened_through_gateway());
  const auto hw_id = remote->read32(kHwIdAddress);
  ASSERT_TRUE(hw_id.has_value()) << hw_id.error().message() << "\n" << server_log();
  EXPECT_EQ(*hw_id & 0xffff, kConnectX4HwId);
  EXPECT_EQ(*hw_id, local);
}

TEST_F(Mstmtserver, BlocksFallBackToDwordReadsOnTheMstUlBuild) {
  if (!serve_device() || !start_mstmtserver()) return;
  auto remote = open_remote();
  ASSERT_NE(remote, nullptr);
  std::vector<std::uint32_t> block(4);
  const auto r = remote->read_block(kHwIdAddress - 4, block);
  ASSERT_TRUE(r.has_value()) << r.error().message() << "\n" << server_log();
  EXPECT_EQ(remote->has_block_read(), false);  // B answered "E Invalid command"
  EXPECT_EQ(block[1] & 0xffff, kConnectX4HwId);
  for (std::size_t i = 0; i < block.size(); ++i) {
    const auto one = remote->read32(kHwIdAddress - 4 + static_cast<std::uint32_t>(4 * i));
    ASSERT_TRUE(one.has_value()) << one.error().message();
    EXPECT_EQ(block[i], *one) << i;
  }
  // The debug log shows the requests as the server saw them: one B, then R per dword.
  const std::string log = server_log();
  const std::size_t b = log.find("<- B 0xf0010 16");
  ASSERT_NE(b, std::string::npos) << log;
  EXPECT_NE(log.find("-> E Invalid command", b), std::string::npos) << log;
  for (const char* request : {"<- R 0xf0010", "<- R 0xf0014", "<- R 0xf0018", "<- R 0xf001c"})
    EXPECT_NE(log.find(request, b), std::string::npos) << request << " missing after the B:\n" << log;
}

TEST_F(Mstmtserver, AnswersTheRawProtocolAsDocumented) {
  if (!serve_device() || !start_mstmtserver()) return;
  auto connection = BusConnection::connect_tcp("127.0.0.1", port_, 2000ms);
  ASSERT_TRUE(connection.has_value()) << connection.error().message();
  const auto ask = [&connection](const std::string& request) -> std::string {
    EXPECT_TRUE(connection->send(request).has_value());
    auto reply = connection->receive(kBusMaxReplyBytes, 10s);
    EXPECT_TRUE(reply.has_value()) << request << ": " << reply.error().message();
    return reply ? *reply : std::string("<none>");
  };
  EXPECT_EQ(ask("V"), "O 1.4");
  EXPECT_EQ(ask("B 0xf0014 4"), "E Invalid command");
  EXPECT_EQ(ask("U 0xf0014 4 0"), "E Invalid command");
  EXPECT_EQ(ask("X"), "E Invalid command");
  const std::string list = ask("L");
  EXPECT_EQ(list, "O 1");
  if (list == "O 1") {
    auto name = connection->receive(kBusMaxReplyBytes, 10s);
    ASSERT_TRUE(name.has_value()) << name.error().message();
    EXPECT_EQ(*name, "/dev/mst/mt25204_pci_cr0");
  }
  // MST_UL: the name is ignored, -dev is opened; 1: through the VSEC gateway (a ConnectX-4 has one).
  EXPECT_EQ(ask("O 1 whatever-the-name"), "O 1");
  // strtoul forms: octal 03600024 is 0xf0014.
  const std::string octal = ask("R 03600024");
  const auto hw_id = parse_read_reply(octal);
  ASSERT_TRUE(hw_id.has_value()) << octal;
  EXPECT_EQ(*hw_id & 0xffff, kConnectX4HwId);
  EXPECT_EQ(ask("C"), "O");
}

}  // namespace
}  // namespace openflint
