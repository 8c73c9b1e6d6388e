// PciServeFixture: simulated devices (hcasim create) served by a child `hcasim pci-serve` as a
// sysfs PCI tree over FUSE; our tools reach them through OPENFLINT_SYSFS_ROOT. TearDown (which
// also runs after a failed assertion) stops the server and checks it exited 0, unmounted, left
// no process and no BAR file behind.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

// Whether /proc/self/mountinfo lists `dir` as a mount point.
inline bool listed_as_mount(const std::filesystem::path& dir) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  const std::string needle = " " + dir.string() + " ";
  while (std::getline(in, line))
    if (line.find(needle) != std::string::npos) return true;
  return false;
}

// The value of a "Name:   value" line of flint/mstflint query output.
inline std::string query_field(const std::string& out, const std::string& name) {
  std::string literal;  // name with the regex specials escaped: "FW Version(Running)"
  for (char ch : name) {
    if (std::string_view("()[]{}.*+?^$|\\").find(ch) != std::string_view::npos) literal += '\\';
    literal += ch;
  }
  const std::regex line("(^|\n)" + literal + ":\\s+([^\n]*)");
  std::smatch m;
  return std::regex_search(out, m, line) ? m[2].str() : std::string();
}

class PciServeFixture : public ::testing::Test {
 protected:
  static constexpr auto kReadyTimeout = std::chrono::seconds(30);
  static constexpr auto kStopTimeout = std::chrono::seconds(30);

  PciServeFixture() {
    std::filesystem::create_directories(sysfs_);
    std::filesystem::create_directories(run_dir_);
    std::string tmpl = "/dev/shm/openflint-test-bars-XXXXXX";  // the servers' BAR files (--shm-dir)
    if (::mkdtemp(tmpl.data()) != nullptr) shm_dir_ = tmpl;
  }

  void TearDown() override {
    stop_server();
    if (!shm_dir_.empty()) {
      std::error_code ec;
      EXPECT_TRUE(std::filesystem::is_empty(shm_dir_, ec)) << "the server left a BAR file in " << shm_dir_;
      std::filesystem::remove_all(shm_dir_, ec);
    }
  }

  // `hcasim create --model MODEL DIR --image IMAGE`; the device directory.
  std::filesystem::path create_device(const std::string& name, const std::string& model,
                                      const std::filesystem::path& image) {
    const auto dir = dir_ / name;
    const auto r = run_tool("hcasim", {"create", "--model", model, dir.string(), "--image", image.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return dir;
  }

  // Starts `hcasim pci-serve --json DIRS --sysfs MNT EXTRA...` and waits for its ready line.
  // False when the test cannot go on: skipped (FUSE cannot be mounted here) or failed.
  bool serve(const std::vector<std::filesystem::path>& dirs, const std::vector<std::string>& extra = {}) {
    EXPECT_FALSE(shm_dir_.empty()) << "cannot make a directory under /dev/shm";
    std::vector<std::string> argv{bin("hcasim").string(), "pci-serve", "--json"};
    for (const auto& d : dirs) argv.push_back(d.string());
    argv.insert(argv.end(), {"--sysfs", sysfs_.string(), "--shm-dir", shm_dir_.string()});
    argv.insert(argv.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ChildProcess>(background_tool(argv, std::vector<std::string>{}, dir_ / "serve.out", dir_ / "serve.err"));
    if (server_->pid() <= 0) {
      ADD_FAILURE() << "cannot start hcasim pci-serve";
      return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (server_->out().find("\"ready\":true") != std::string::npos) return true;
      if (!server_->running()) {
        const std::string out = server_->out(), err = server_->err();
        if (out.find("\"NotSupported\"") != std::string::npos || out.find("\"PermissionDenied\"") != std::string::npos) {
          server_.reset();
          skip_no_fuse(out + err);
          return false;
        }
        ADD_FAILURE() << "hcasim pci-serve exited (" << server_->status().value_or(-999) << ") before it was ready: "
                      << out << err;
        server_.reset();
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "hcasim pci-serve was not ready after " << kReadyTimeout.count() << " s: " << server_->out()
                  << server_->err();
    return false;
  }

  // SIGTERM, a bounded wait, then the checks: exit 0, the mount is gone, the process is gone.
  // Only our own server and mount are touched; a server that does not stop is killed.
  void stop_server() {
    if (!server_) return;
    const pid_t pid = server_->pid();
    server_->signal(SIGTERM);
    auto status = server_->wait_for(kStopTimeout);
    if (!status) {
      ADD_FAILURE() << "hcasim pci-serve (pid " << pid << ") did not stop " << kStopTimeout.count()
                    << " s after SIGTERM; killed";
      server_->signal(SIGKILL);
      status = server_->wait_for(std::chrono::seconds(10));
    }
    EXPECT_EQ(status.value_or(-999), 0) << "hcasim pci-serve: " << server_->out() << server_->err();
    errno = 0;
    EXPECT_TRUE(::kill(pid, 0) == -1 && errno == ESRCH) << "hcasim pci-serve (pid " << pid << ") is still there";
    if (listed_as_mount(sysfs_)) {
      ADD_FAILURE() << sysfs_ << " is still mounted after hcasim pci-serve ended; detaching it";
      ::umount2(sysfs_.c_str(), MNT_DETACH);
    }
    server_.reset();
  }

  // OPENFLINT_MST_SAVE_DIR: `mst start` saves configuration spaces (default /var/mst_pci) into the
  // test's directory instead of the host's.
  [[nodiscard]] std::vector<std::string> tool_env() const {
    return {"OPENFLINT_SYSFS_ROOT=" + sysfs_.string(), "OPENFLINT_RUN_DIR=" + run_dir_.string(),
            "OPENFLINT_MST_SAVE_DIR=" + (dir_ / "mst_pci").string()};
  }

  // argv run in a new mount namespace where the served tree is /sys/bus/pci, for the real
  // mstflint tools, killed after `timeout_s` (a hang fails instead of blocking). The namespace
  // and its bind mounts end with the command (unshare's default propagation is private: nothing
  // reaches the host's mounts). mstflint flocks /tmp/mstflint_lockfiles/<BDF>_config without
  // waiting, and that directory is shared by every namespace: another mstflint on some other
  // served 0000:03:00.0 makes it fail with EAGAIN ("Cannot open Device ... Resource temporarily
  // unavailable"), so the namespace gets a lock directory of this test's own.
  CommandResult in_pci_namespace(const std::vector<std::string>& argv, int timeout_s = 300) const {
    std::filesystem::create_directories(dir_ / "mstflint_lockfiles");
    std::vector<std::string> cmd{"unshare", "-m", "--fork", "sh", "-c",
                                 "mount --bind \"$0\" /sys/bus/pci || exit 97; mkdir -p /tmp/mstflint_lockfiles && "
                                 "mount --bind \"$1\" /tmp/mstflint_lockfiles || exit 98; shift; exec \"$@\"",
                                 sysfs_.string(), (dir_ / "mstflint_lockfiles").string(), "timeout",
                                 std::to_string(timeout_s)};
    cmd.insert(cmd.end(), argv.begin(), argv.end());
    return run_command(cmd);
  }
  // Empty when the namespace and its bind mounts can be made here, else why not (to skip).
  [[nodiscard]] std::string pci_namespace_problem() const {
    const auto r = in_pci_namespace({"true"});
    if (r.exit_code == 0) return {};
    return "cannot bind-mount the served tree over /sys/bus/pci in a private mount namespace (exit " +
           std::to_string(r.exit_code) + "): " + r.err;
  }

  // Our flint against the served tree.
  CommandResult flint(std::vector<std::string> args) const {
    args.insert(args.begin(), bin("flint").string());
    return run_command(args, tool_env());
  }

  // The FW version flint reads from an image file.
  static std::string image_version(const std::filesystem::path& image) {
    const auto r = run_tool("flint", {"-i", image.string(), "q"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return query_field(r.out, "FW Version");
  }

  // The running FW version of a saved device (the server must be stopped): `hcasim show --json`.
  static std::string saved_running_version(const std::filesystem::path& device_dir) {
    const auto r = run_tool("hcasim", {"show", device_dir.string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const std::regex field("\"fw_version\":\\s*\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(r.out, m, field) ? m[1].str() : std::string();
  }

  static void skip_no_fuse(const std::string& why) {
    GTEST_SKIP() << "hcasim pci-serve cannot mount FUSE here (needs /dev/fuse and CAP_SYS_ADMIN): " << why;
  }

  TempDir dir_;
  std::filesystem::path sysfs_ = dir_ / "pci";
  std::filesystem::path run_dir_ = dir_ / "run";
  std::filesystem::path shm_dir_;
  std::unique_ptr<ChildProcess> server_;
};

}  // namespace openflint::test
