// MstmtserverFixture: the Debian mstmtserver serving a simulated ConnectX-4 (0000:03:00.0 of an hcasim pci-serve tree) from its own mount and PID namespaces, on a free loopback port.
#pragma once

#include <signal.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "tests/support/LoopbackPort.h"

namespace openflint::test {

inline constexpr auto kMstmtserverReadyTimeout = std::chrono::seconds(15);
inline constexpr auto kMstmtserverStopTimeout = std::chrono::seconds(10);

// Whether a process of the server on `port` is left (its per-connection children and its
// `timeout` have the same command line); other tests' servers on other ports do not count.
inline bool mstmtserver_running(std::uint16_t port) {
  return run_command({"pgrep", "-f", "mstmtserver -d -p " + std::to_string(port) + " -dev"}).exit_code == 0;
}

class MstmtserverFixture : public PciServeFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstmtserver", "unshare", "mount", "timeout", "stdbuf", "pgrep"})
      if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; mstmtserver not checked";
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
  }

  // mstmtserver first (it holds the served tree through its bind mount), then the PCI server.
  void TearDown() override {
    stop_mstmtserver();
    PciServeFixture::TearDown();
  }

  // A simulated ConnectX-4 served as 0000:03:00.0; false when the test cannot go on.
  bool serve_device() {
    const auto dev = create_device("dev", "connectx4", sample_image("connectx4-old"));
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
    port_ = unused_loopback_port();
    EXPECT_NE(port_, 0) << "no free TCP port";
    std::filesystem::create_directories(dir_ / "mstflint_lockfiles");
    const std::vector<std::string> argv{
        "unshare", "-m", "-p", "--fork", "--kill-child", "sh", "-c",
        "mount --bind \"$0\" /sys/bus/pci || exit 97; mkdir -p /tmp/mstflint_lockfiles && "
        "mount --bind \"$1\" /tmp/mstflint_lockfiles || exit 98; exec timeout \"$3\" stdbuf -oL mstmtserver -d -p \"$2\" -dev 03:00.0",
        sysfs_.string(), (dir_ / "mstflint_lockfiles").string(), std::to_string(port_),
        std::to_string(server_lifetime_seconds_)};
    mtserver_ = std::make_unique<ChildProcess>(background_tool(argv, std::vector<std::string>{}, dir_ / "mtserver.out",
                                               dir_ / "mtserver.err"));
    if (mtserver_->pid() <= 0) {
      ADD_FAILURE() << "cannot start unshare ... mstmtserver";
      return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + kMstmtserverReadyTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (!mtserver_->running()) {
        ADD_FAILURE() << "mstmtserver exited (" << mtserver_->status().value_or(-999) << "): " << server_log();
        return false;
      }
      if (auto probe = BusConnection::connect_tcp("127.0.0.1", port_, std::chrono::milliseconds(500))) {
        EXPECT_TRUE(mstmtserver_running(port_)) << "pgrep does not see the server it must find gone later";
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "mstmtserver did not listen on port " << port_ << ": " << server_log();
    return false;
  }

  void stop_mstmtserver() {
    if (!mtserver_) return;
    mtserver_->signal(SIGKILL);
    EXPECT_TRUE(mtserver_->wait_for(kMstmtserverStopTimeout).has_value()) << "unshare ... mstmtserver did not end";
    mtserver_.reset();
    const auto deadline = std::chrono::steady_clock::now() + kMstmtserverStopTimeout;
    while (mstmtserver_running(port_) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(mstmtserver_running(port_)) << "an mstmtserver process on port " << port_ << " is left behind";
  }

  [[nodiscard]] std::string server_log() const { return mtserver_ ? mtserver_->out() + mtserver_->err() : ""; }


  std::uint16_t port_ = 0;
  std::unique_ptr<ChildProcess> mtserver_;
  // How long `timeout` lets the server live should the test process die without stopping it.
  int server_lifetime_seconds_ = 60;
};

}  // namespace openflint::test
