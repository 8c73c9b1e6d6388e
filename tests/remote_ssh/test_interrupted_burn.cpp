// Issue 12: a remote burn whose client or server (TCP or ssh) is SIGKILLed part-way leaves the device
// bootable and unlocked, no process of the session behind, and a second burn completes.
#include <signal.h>

#include "tests/remote_ssh/InterruptedBurn.h"
#include "tests/remote_ssh/SshdFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kSessionEnd = 30s;  // a killed client's session ends (and saves) within this

std::string tcp_name(std::uint16_t port, const std::string& device) {
  std::string encoded = device;
  for (char& c : encoded)
    if (c == '/') c = '@';
  return "127.0.0.1:" + std::to_string(port) + "," + encoded;
}

// A simulated ConnectX-3 (and a copy for the calibration burn) served by `mst server --port P`.
class InterruptedTcpBurn : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& d : {device_dir_, probe_dir_}) {
      const auto r = run_tool("hcasim", {"create", "--model", "connectx3", d.string(), "--image",
                                         sample_image("connectx3-old").string()});
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    }
  }
  void TearDown() override {
    for (auto& s : servers_)
      if (s->running()) s->signal(SIGKILL);
    servers_.clear();  // reaps
    const auto left = run_command({"pgrep", "-af", dir_.path().string()});
    EXPECT_NE(left.exit_code, 0) << "processes of this test left: " << left.out;
  }
  std::uint16_t start_server() {
    const std::uint16_t port = unused_loopback_port();
    const auto n = std::to_string(servers_.size());
    servers_.push_back(std::make_unique<ChildProcess>(background_tool(
        std::vector<std::string>{bin("mst").string(), "server", "--port", std::to_string(port), "--audit-log",
                                 audit_.string(), device_, probe_},
        std::vector<std::string>{}, dir_ / ("server" + n + ".out"), dir_ / ("server" + n + ".err"))));
    EXPECT_TRUE(wait_for_text(dir_ / ("server" + n + ".err"), "-I- serving", 20s)) << servers_.back()->err();
    return port;
  }
  // Calibrates on the probe device, starts the real burn and returns it once it is part-way.
  std::unique_ptr<ChildProcess> burn_part_way(std::uint16_t port) {
    const auto whole = measure_burn(dir_.path(), tcp_name(port, probe_), probe_, audit_, {});
    auto burn = start_burn(dir_.path(), "burn", tcp_name(port, device_), {});
    EXPECT_TRUE(wait_for_text(audit_, first_write_line(device_), 60s)) << file_text(audit_);
    std::this_thread::sleep_for(whole * 2 / 5);
    EXPECT_TRUE(burn->running()) << "the burn finished before the kill (" << whole.count() << " ms in all)";
    return burn;
  }
  void burn_again(std::uint16_t port) {
    auto again = start_burn(dir_.path(), "again", tcp_name(port, device_), {});
    ASSERT_EQ(again->wait_for(180s), std::optional<int>(0)) << again->err();
    const auto q = run_tool("flint", {"-d", device_, "q"});
    EXPECT_NE(q.out.find(std::string("FW Version:            ") + kNewVersion), std::string::npos) << q.out;
  }

  TempDir dir_;
  fs::path device_dir_ = dir_ / "cx3";
  fs::path probe_dir_ = dir_ / "probe";
  std::string device_ = "sim:" + device_dir_.string();
  std::string probe_ = "sim:" + probe_dir_.string();
  fs::path audit_ = dir_ / "audit.log";
  std::vector<std::unique_ptr<ChildProcess>> servers_;
};

TEST_F(InterruptedTcpBurn, ClientKilledMidBurn) {
  const std::uint16_t port = start_server();
  ASSERT_NE(port, 0);
  const auto before = read_file(device_dir_ / "flash.bin");
  auto burn = burn_part_way(port);
  burn->signal(SIGKILL);
  ASSERT_EQ(burn->wait_for(10s), std::optional<int>(-SIGKILL));
  // The server sees the connection end, releases the device (saving what was written) and goes on.
  EXPECT_TRUE(wait_for_text(audit_, "closed " + device_ + " ", kSessionEnd)) << file_text(audit_);
  // flint held the flash lock through the burn; the server gave it back (remote/SessionFlashLock.h).
  EXPECT_TRUE(wait_for_text(audit_, "released the flash lock the client of " + device_, 0ms)) << file_text(audit_);
  EXPECT_TRUE(servers_.back()->running());
  const auto state = expect_unlocked_and_bootable(device_dir_);
  // Observed: the kill lands while the new image is being written to the other half; the boot
  // pointer still names the old one (the failsafe order), so the old image boots.
  EXPECT_NE(read_file(device_dir_ / "flash.bin"), before) << "the kill landed before any flash write";
  EXPECT_EQ(state.running_version, kOldVersion);
  burn_again(port);
}

TEST_F(InterruptedTcpBurn, ServerKilledMidBurn) {
  const std::uint16_t port = start_server();
  ASSERT_NE(port, 0);
  const auto before = read_file(device_dir_ / "flash.bin");
  auto burn = burn_part_way(port);
  servers_.back()->signal(SIGKILL);
  ASSERT_TRUE(servers_.back()->wait_for(10s).has_value());
  // The client fails at once (the connection closed), one line, not a hang.
  const auto status = burn->wait_for(30s);
  ASSERT_TRUE(status.has_value()) << "flint hangs after the server died";
  EXPECT_NE(*status, 0);
  // "the server closed the connection" (EOF) or "... from the server: ..." (a reset), depending on
  // whether the kill lands while flint waits for a reply or while it sends a pipelined batch.
  EXPECT_NE(burn->err().find("the server"), std::string::npos) << burn->err();
  // A SIGKILLed server saves nothing: the simulated device keeps its last saved state, the old
  // image (on hardware the flash would hold the half-written other copy; the boot pointer, written
  // last, still names the old one). Its lock died with it.
  EXPECT_EQ(read_file(device_dir_ / "flash.bin"), before);
  EXPECT_EQ(expect_unlocked_and_bootable(device_dir_).running_version, kOldVersion);
  burn_again(start_server());
}

// ssh: flint killed mid-burn; its ssh sees EOF, the remote `mst server --stdio` ends the session
// (saving what was written) and exits, and so does ssh.
class InterruptedSshBurn : public SshdFixture {
 protected:
  void SetUp() override {
    SshdFixture::SetUp();
    if (HasFatalFailure()) return;
    const auto r = run_tool("hcasim", {"create", "--model", "connectx3", probe_dir_.string(), "--image",
                                       sample_image("connectx3-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    // OPENFLINT_REMOTE_MST may be any remote command: here a wrapper that adds an audit log.
    const fs::path wrapper = dir_ / "mst-audited";
    const std::string script = "#!/bin/sh\nexec '" + fs::absolute(bin("mst")).string() + "' \"$@\" --audit-log '" +
                               audit_.string() + "'\n";
    write_file(wrapper, std::vector<std::uint8_t>(script.begin(), script.end()));
    fs::permissions(wrapper, fs::perms::owner_all);
    env_ = ssh_env();
    env_.back() = "OPENFLINT_REMOTE_MST=" + wrapper.string();
  }
  [[nodiscard]] std::string name_of(const std::string& device) const {
    return "ssh:" + login() + "@127.0.0.1:" + std::to_string(port_) + "/" + device;
  }

  // The calibration burn, then the real one, returned once part-way.
  std::unique_ptr<ChildProcess> burn_part_way() {
    const auto whole = measure_burn(dir_.path(), name_of(probe_), probe_, audit_, env_);
    auto burn = start_burn(dir_.path(), "burn", name_of(device_), env_);
    EXPECT_TRUE(wait_for_text(audit_, first_write_line(device_), 60s)) << file_text(audit_) << burn->err();
    std::this_thread::sleep_for(whole * 2 / 5);
    EXPECT_TRUE(burn->running()) << "the burn finished before the kill (" << whole.count() << " ms in all)";
    return burn;
  }
  // No ssh client and no remote mst of this device left, within kSessionEnd.
  void expect_session_gone() {
    const auto deadline = std::chrono::steady_clock::now() + kSessionEnd;
    CommandResult left;
    while ((left = run_command({"pgrep", "-af", device_dir_.string()})).exit_code == 0 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(100ms);
    EXPECT_NE(left.exit_code, 0) << "left behind: " << left.out;
  }
  void burn_again() {
    auto again = start_burn(dir_.path(), "again", name_of(device_), env_);
    ASSERT_EQ(again->wait_for(180s), std::optional<int>(0)) << again->err();
    const auto q = run_tool("flint", {"-d", device_, "q"});
    EXPECT_NE(q.out.find(std::string("FW Version:            ") + kNewVersion), std::string::npos) << q.out;
  }

  fs::path probe_dir_ = dir_ / "probe";
  std::string probe_ = "sim:" + probe_dir_.string();
  fs::path audit_ = dir_ / "audit.log";
  std::vector<std::string> env_;
};

TEST_F(InterruptedSshBurn, ClientKilledMidBurn) {
  const auto before = read_file(device_dir_ / "flash.bin");
  auto burn = burn_part_way();
  ASSERT_TRUE(burn->running());
  burn->signal(SIGKILL);
  ASSERT_EQ(burn->wait_for(10s), std::optional<int>(-SIGKILL));
  // The session's processes go away by themselves: ssh here, mst on the "remote" side.
  EXPECT_TRUE(wait_for_text(audit_, "closed " + device_ + " ", kSessionEnd)) << file_text(audit_);
  EXPECT_TRUE(wait_for_text(audit_, "released the flash lock the client of " + device_, 0ms)) << file_text(audit_);
  expect_session_gone();
  const auto state = expect_unlocked_and_bootable(device_dir_);
  EXPECT_NE(read_file(device_dir_ / "flash.bin"), before) << "the kill landed before any flash write";
  EXPECT_EQ(state.running_version, kOldVersion);
  burn_again();
}

// The remote `mst server --stdio` SIGKILLed mid-burn: ssh exits, flint fails with one line
// naming ssh's status; nothing was saved, so the device holds its old image, unlocked.
TEST_F(InterruptedSshBurn, RemoteServerKilledMidBurn) {
  const auto before = read_file(device_dir_ / "flash.bin");
  auto burn = burn_part_way();
  ASSERT_TRUE(burn->running());
  const std::string server = "^" + fs::absolute(bin("mst")).string() + " server --stdio " + device_;
  const auto killed = run_command({"pkill", "-KILL", "-f", server});
  ASSERT_EQ(killed.exit_code, 0) << "no remote server found: " << killed.err;
  const auto status = burn->wait_for(30s);
  ASSERT_TRUE(status.has_value()) << "flint hangs after the remote server died";
  EXPECT_NE(*status, 0);
  EXPECT_NE(burn->err().find("(ssh exited with status "), std::string::npos) << burn->err();
  EXPECT_EQ(burn->err().find("-E-"), burn->err().rfind("-E-")) << burn->err();  // one error line
  expect_session_gone();
  EXPECT_EQ(read_file(device_dir_ / "flash.bin"), before);
  EXPECT_EQ(expect_unlocked_and_bootable(device_dir_).running_version, kOldVersion);
  burn_again();
}

}  // namespace
}  // namespace openflint::test
