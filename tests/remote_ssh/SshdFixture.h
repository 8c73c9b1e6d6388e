// SshdFixture: a throwaway OpenSSH server on 127.0.0.1 (own host key, client keys, config, all in a temp
// dir) and a simulated ConnectX-3, for ssh: device names. TearDown kills sshd and its sessions and checks none is left.
#pragma once

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"
#include "tests/support/LoopbackPort.h"

namespace openflint::test {

inline constexpr const char* kSshd = "/usr/sbin/sshd";

// The pids of every descendant of `pid` (from /proc, children first found, then theirs).
inline std::set<pid_t> descendants_of(pid_t pid) {
  std::set<pid_t> found;
  std::vector<pid_t> todo{pid};
  while (!todo.empty()) {
    const pid_t parent = todo.back();
    todo.pop_back();
    const auto r = run_command({"pgrep", "-P", std::to_string(parent)});
    std::istringstream in(r.out);
    pid_t child = 0;
    while (in >> child)
      if (found.insert(child).second) todo.push_back(child);
  }
  return found;
}

class SshdFixture : public ::testing::Test {
 protected:
  static constexpr auto kReadyTimeout = std::chrono::seconds(20);

  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(kSshd)) << kSshd << " is missing: scripts/setup.sh installs openssh-server";
    ASSERT_TRUE(have_program("ssh") && have_program("ssh-keygen")) << "scripts/setup.sh installs openssh-client";
    for (const char* key : {"host_key", "client_key", "wrong_key"}) {
      const auto r = run_command({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f", (dir_ / key).string()});
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    }
    std::filesystem::copy_file(dir_ / "client_key.pub", dir_ / "authorized_keys");
    port_ = unused_loopback_port();
    ASSERT_NE(port_, 0);
    {
      std::ofstream cfg(dir_ / "sshd_config");
      cfg << "ListenAddress 127.0.0.1\nPort " << port_ << "\nHostKey " << (dir_ / "host_key").string()
          << "\nAuthorizedKeysFile " << (dir_ / "authorized_keys").string() << "\nPidFile "
          << (dir_ / "sshd.pid").string()
          << "\nStrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
             "PermitRootLogin prohibit-password\nX11Forwarding no\nAllowAgentForwarding no\n";
    }
    std::filesystem::create_directories("/run/sshd");  // its privilege-separation directory
    sshd_ = std::make_unique<ChildProcess>(background_tool(
        std::vector<std::string>{kSshd, "-D", "-e", "-f", (dir_ / "sshd_config").string()}, std::vector<std::string>{},
        dir_ / "sshd.out", dir_ / "sshd.err"));
    const auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
    bool up = false;
    while (!up && std::chrono::steady_clock::now() < deadline && sshd_->running()) {
      up = BusConnection::connect_tcp("127.0.0.1", port_, std::chrono::milliseconds(500)).has_value();
      if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(up) << "sshd did not come up: " << sshd_->err();
    const auto r = run_tool("hcasim", {"create", "--model", "connectx3", device_dir_.string(), "--image",
                                       sample_image("connectx3-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }

  void TearDown() override {
    if (sshd_) {
      // Sessions first (they are sshd's children and would outlive the listener), then sshd.
      for (const pid_t pid : descendants_of(sshd_->pid())) ::kill(pid, SIGKILL);
      if (sshd_->running()) sshd_->signal(SIGKILL);
      sshd_.reset();  // reaps
    }
    const auto left = run_command({"pgrep", "-af", dir_.path().string()});
    EXPECT_NE(left.exit_code, 0) << "processes of this test left (sshd, ssh, mst): " << left.out;
  }

  [[nodiscard]] static std::string login() {
    const passwd* pw = ::getpwuid(::getuid());
    return pw != nullptr ? pw->pw_name : "root";
  }
  // The ssh command a client uses: our key only, our known_hosts, no user or system config.
  [[nodiscard]] std::string ssh_command(const std::string& key = "client_key",
                                        const std::string& host_key_checking = "accept-new") const {
    return "ssh -F /dev/null -i " + (dir_ / key).string() + " -o IdentitiesOnly=yes -o UserKnownHostsFile=" +
           (dir_ / "known_hosts").string() + " -o StrictHostKeyChecking=" + host_key_checking;
  }
  [[nodiscard]] std::vector<std::string> ssh_env(const std::string& key = "client_key",
                                                 const std::string& host_key_checking = "accept-new") const {
    return {"OPENFLINT_SSH_COMMAND=" + ssh_command(key, host_key_checking),
            "OPENFLINT_REMOTE_MST=" + std::filesystem::absolute(bin("mst")).string()};
  }
  [[nodiscard]] std::string ssh_name() const {
    return "ssh:" + login() + "@127.0.0.1:" + std::to_string(port_) + "/" + device_;
  }
  CommandResult flint(const std::vector<std::string>& args, const std::vector<std::string>& env) const {
    std::vector<std::string> argv{bin("flint").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, env);
  }

  TempDir dir_;
  std::filesystem::path device_dir_ = dir_ / "cx3";
  std::string device_ = "sim:" + device_dir_.string();
  std::uint16_t port_ = 0;
  std::unique_ptr<ChildProcess> sshd_;
};

}  // namespace openflint::test
