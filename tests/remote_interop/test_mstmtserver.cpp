// Interop: the Debian mstmtserver (mstflint 4.21) serving a simulated ConnectX-4 from a mount namespace, read by RemoteBusAccess.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/BusConnection.h"
#include "mtcr/BusProtocol.h"
#include "mtcr/PciAddress.h"
#include "mtcr/PciConfigAccess.h"
#include "mtcr/RemoteBusAccess.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;
using test::ChildProcess;

constexpr std::uint32_t kHwIdAddress = 0xf0014;
constexpr std::uint32_t kConnectX4HwId = 0x209;
constexpr auto kServerReadyTimeout = 15s;
constexpr auto kServerStopTimeout = 10s;

// A TCP port that was free a moment ago (bound to 0, then released).
std::uint16_t free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  std::uint16_t port = 0;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

// Whether a process of the server on `port` is left (its per-connection children and its
// `timeout` have the same command line); other tests' servers on other ports do not count.
bool mstmtserver_running(std::uint16_t port) {
  return test::run_command({"pgrep", "-f", "mstmtserver -d -p " + std::to_string(port) + " -dev"}).exit_code == 0;
}

class Mstmtserver : public test::PciServeFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstmtserver", "unshare", "mount", "timeout", "stdbuf", "pgrep"})
      if (!test::have_program(tool)) GTEST_SKIP() << tool << " is not installed; mstmtserver interop not checked";
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
  }

  // mstmtserver first (it holds the served tree through its bind mount), then the PCI server.
  void TearDown() override {
    stop_mstmtserver();
    PciServeFixture::TearDown();
  }

  // A simulated ConnectX-4 served as 0000:03:00.0; false when the test cannot go on.
  bool serve_device() {
    const auto dev = create_device("dev", "connectx4", test::sample_image("connectx4-old"));
    if (!serve({dev})) return false;
    if (const std::string problem = pci_namespace_problem(); !problem.empty()) {
      skip(problem);
      return false;
    }
    return true;
  }
  static void skip(const std::string& why) { GTEST_SKIP() << why; }

  // `mstmtserver -d -p PORT -dev 03:00.0` in its own mount and PID namespaces. unshare's parent
  // blocks SIGTERM, so it is stopped with SIGKILL; --kill-child then kills the namespace's first
  // process and with it every process of the namespace, the per-connection children that
  // mstmtserver forks included. Should the test process die instead, `timeout` ends the server.
  // stdbuf: the -d request log reaches its file line by line.
  bool start_mstmtserver() {
    port_ = free_port();
    EXPECT_NE(port_, 0) << "no free TCP port";
    std::filesystem::create_directories(dir_ / "mstflint_lockfiles");
    const std::vector<std::string> argv{
        "unshare", "-m", "-p", "--fork", "--kill-child", "sh", "-c",
        "mount --bind \"$0\" /sys/bus/pci || exit 97; mkdir -p /tmp/mstflint_lockfiles && "
        "mount --bind \"$1\" /tmp/mstflint_lockfiles || exit 98; exec timeout 60 stdbuf -oL mstmtserver -d -p \"$2\" -dev 03:00.0",
        sysfs_.string(), (dir_ / "mstflint_lockfiles").string(), std::to_string(port_)};
    mtserver_ = std::make_unique<ChildProcess>(argv, std::vector<std::string>{}, dir_ / "mtserver.out",
                                               dir_ / "mtserver.err");
    if (mtserver_->pid() <= 0) {
      ADD_FAILURE() << "cannot start unshare ... mstmtserver";
      return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + kServerReadyTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (!mtserver_->running()) {
        ADD_FAILURE() << "mstmtserver exited (" << mtserver_->status().value_or(-999) << "): " << server_log();
        return false;
      }
      if (auto probe = BusConnection::connect_tcp("127.0.0.1", port_, 500ms)) {
        EXPECT_TRUE(mstmtserver_running(port_)) << "pgrep does not see the server it must find gone later";
        return true;
      }
      std::this_thread::sleep_for(50ms);
    }
    ADD_FAILURE() << "mstmtserver did not listen on port " << port_ << ": " << server_log();
    return false;
  }

  std::unique_ptr<RemoteBusAccess> open_remote() {
    auto connection = BusConnection::connect_tcp("127.0.0.1", port_, 2000ms);
    EXPECT_TRUE(connection.has_value()) << connection.error().message();
    if (!connection) return nullptr;
    auto access = RemoteBusAccess::open(std::move(connection).value(), "/dev/mst/mt4115_pciconf0", 10000ms);
    EXPECT_TRUE(access.has_value()) << access.error().message() << "\n" << server_log();
    return access ? std::move(access).value() : nullptr;
  }

  void stop_mstmtserver() {
    if (!mtserver_) return;
    mtserver_->signal(SIGKILL);
    EXPECT_TRUE(mtserver_->wait_for(kServerStopTimeout).has_value()) << "unshare ... mstmtserver did not end";
    mtserver_.reset();
    const auto deadline = std::chrono::steady_clock::now() + kServerStopTimeout;
    while (mstmtserver_running(port_) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(mstmtserver_running(port_)) << "an mstmtserver process on port " << port_ << " is left behind";
  }

  [[nodiscard]] std::string server_log() const { return mtserver_ ? mtserver_->out() + mtserver_->err() : ""; }

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

  std::uint16_t port_ = 0;
  std::unique_ptr<ChildProcess> mtserver_;
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
