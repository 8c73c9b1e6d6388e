// End to end: our flint queries a simulated ConnectX-4 that the Debian mstmtserver serves from a mount namespace, by its remote name.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/BusConnection.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;
using test::ChildProcess;

constexpr auto kServerReadyTimeout = 15s;
constexpr auto kServerStopTimeout = 10s;
// mstflint's server has no block commands: every dword of the query is one round trip.
constexpr int kQueryTimeoutSeconds = 300;
constexpr int kServerLifetimeSeconds = kQueryTimeoutSeconds + 60;  // `timeout` ends a server we lost
constexpr auto kRefusedBound = 5s;

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

// The server's command line, unique to this port (its forked children and `timeout` share it).
std::string server_pattern(std::uint16_t port) { return "mstmtserver -d -p " + std::to_string(port) + " -dev"; }

bool mstmtserver_running(std::uint16_t port) {
  return test::run_command({"pgrep", "-f", server_pattern(port)}).exit_code == 0;
}

class FlintOverMstmtserver : public test::PciServeFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstmtserver", "unshare", "mount", "timeout", "stdbuf", "pgrep"})
      if (!test::have_program(tool)) GTEST_SKIP() << tool << " is not installed; flint over mstmtserver not checked";
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
  }

  void TearDown() override {
    stop_mstmtserver();
    PciServeFixture::TearDown();
  }

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

  // As tests/remote_interop: mstmtserver in its own mount and PID namespaces over the served
  // tree; SIGKILL to unshare (--kill-child) ends the namespace and every server process in it.
  bool start_mstmtserver() {
    port_ = free_port();
    EXPECT_NE(port_, 0) << "no free TCP port";
    std::filesystem::create_directories(dir_ / "mstflint_lockfiles");
    const std::vector<std::string> argv{
        "unshare", "-m", "-p", "--fork", "--kill-child", "sh", "-c",
        "mount --bind \"$0\" /sys/bus/pci || exit 97; mkdir -p /tmp/mstflint_lockfiles && "
        "mount --bind \"$1\" /tmp/mstflint_lockfiles || exit 98; exec timeout \"$3\" stdbuf -oL mstmtserver -d -p \"$2\" -dev 03:00.0",
        sysfs_.string(), (dir_ / "mstflint_lockfiles").string(), std::to_string(port_),
        std::to_string(kServerLifetimeSeconds)};
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

  // Our flint with `args`, ended by `timeout` should it hang.
  static test::CommandResult timed_flint(const std::vector<std::string>& args, int timeout_s) {
    std::vector<std::string> argv{"timeout", std::to_string(timeout_s), test::bin("flint").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run_command(argv);
  }

  std::uint16_t port_ = 0;
  std::unique_ptr<ChildProcess> mtserver_;
};

TEST_F(FlintOverMstmtserver, QueryReadsTheImageThroughTheRemoteName) {
  if (!serve_device() || !start_mstmtserver()) return;
  const std::string expected = image_version(test::sample_image("connectx4-old"));
  ASSERT_FALSE(expected.empty());
  const std::string name = "127.0.0.1:" + std::to_string(port_) + ",@dev@mst@mt4115_pciconf0";
  const auto start = std::chrono::steady_clock::now();
  const auto r = timed_flint({"-d", name, "q"}, kQueryTimeoutSeconds);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "flint -d " << name << " q: " << seconds << " s\n";
  RecordProperty("query_seconds", std::to_string(seconds));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << "\nserver log tail: "
                            << server_log().substr(server_log().size() > 2000 ? server_log().size() - 2000 : 0);
  EXPECT_EQ(test::query_field(r.out, "FW Version"), expected) << r.out;
  EXPECT_TRUE(test::query_field(r.out, "Device").starts_with("ConnectX-4 ")) << r.out;
  // The reads went through the server (its -d log shows each request), one R per dword.
  const std::string log = server_log();
  EXPECT_NE(log.find("<- R 0xf0014"), std::string::npos) << log.substr(0, 2000);
  std::size_t reads = 0;
  for (std::size_t at = log.find("<- R "); at != std::string::npos; at = log.find("<- R ", at + 1)) ++reads;
  std::cout << "server answered " << reads << " R requests\n";
  // No MGIR over the bus protocol: flint must not invent a running version.
  EXPECT_TRUE(test::query_field(r.out, "FW Version(Running)").empty()) << r.out;
}

TEST_F(FlintOverMstmtserver, NothingListeningFailsWithOneLine) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = timed_flint({"-d", "127.0.0.1:1,dev", "q"}, 60);
  EXPECT_LT(std::chrono::steady_clock::now() - start, kRefusedBound);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, 124) << "flint hung until `timeout` ended it";
  EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  EXPECT_NE(r.err.find("127.0.0.1:1,dev"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace openflint
