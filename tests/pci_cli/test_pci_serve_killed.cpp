// A killed `hcasim pci-serve` (SIGKILL: no unmount, no save at exit): the tools name the dead
// mount and the remedy instead of "no PCI device" (exit 4); a new pci-serve on the same mount
// point serves again; and nothing a tool reported done is lost — the server saves when the tool
// ends its command (fsync of the config file) and, for tools that never ask, once the device has
// been idle for a quarter second.
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class KilledPciServe : public PciServeFixture {
 protected:
  // SIGKILL, reaped: the mount stays behind, dead, with the server's BAR files.
  void kill_server() {
    ASSERT_TRUE(server_);
    server_->signal(SIGKILL);
    ASSERT_TRUE(server_->wait_for(std::chrono::seconds(10))) << "hcasim pci-serve did not die";
    server_.reset();
    killed_ = true;
  }

  // Also after a failed assertion: the dead mount is detached and the killed server's BAR files
  // removed before the fixture checks that a (properly stopped) server left none.
  void TearDown() override {
    stop_server();
    if (killed_) {
      if (listed_as_mount(sysfs_)) ::umount2(sysfs_.c_str(), MNT_DETACH);
      EXPECT_FALSE(listed_as_mount(sysfs_)) << sysfs_ << " is still mounted";
      std::error_code ec;
      for (const auto& entry : std::filesystem::directory_iterator(shm_dir_, ec)) std::filesystem::remove(entry.path(), ec);
    }
    PciServeFixture::TearDown();
  }

  // The device's state.json as last saved (discarded when unreadable).
  static json saved_state(const std::filesystem::path& dev) {
    std::ifstream in(dev / "state.json");
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str(), nullptr, false);
  }

  bool killed_ = false;
};

TEST_F(KilledPciServe, ToolsNameTheDeadMountAndANewServerServesThereAgain) {
  const auto dev = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  if (!serve({dev}, {"--bdf", "0000:03:00.0"})) return;
  kill_server();
  const std::string remedy = "fusermount3 -u " + sysfs_.string();
  for (const std::string name : {"03:00.0", "mt4115_pciconf0"}) {
    const auto q = flint({"-d", name, "q"});
    EXPECT_EQ(q.exit_code, 4) << name << ": " << q.out << q.err;
    EXPECT_NE(q.err.find("dead FUSE mount"), std::string::npos) << name << ": " << q.err;
    EXPECT_NE(q.err.find(remedy), std::string::npos) << name << ": " << q.err;
  }
  const auto status = run_command({bin("mst").string(), "status"}, tool_env());
  EXPECT_EQ(status.exit_code, 4) << status.out << status.err;
  EXPECT_NE(status.err.find(remedy), std::string::npos) << status.err;

  // Started again on the same mount point, it detaches the dead mount and serves.
  if (!serve({dev}, {"--bdf", "0000:03:00.0"})) return;
  const auto q = flint({"-d", "03:00.0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), image_version(sample_image("connectx4-old"))) << q.out;
}

TEST_F(KilledPciServe, ABurnFlintReportedDoneSurvivesTheServersDeath) {
  const auto new_image = sample_image("connectx4-new");
  const auto dev = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  if (!serve({dev}, {"--bdf", "0000:03:00.0"})) return;
  const auto b = flint({"-d", "03:00.0", "-i", new_image.string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  kill_server();  // at once: no idle save can have run since flint's own save point

  const auto q = run_tool("flint", {"-d", "sim:" + dev.string(), "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), image_version(new_image)) << "the burned image is on the saved flash: " << q.out;
  const json state = saved_state(dev);
  ASSERT_TRUE(state.is_object()) << "state.json is not readable";
  EXPECT_EQ(state.value("flash_locked", true), false) << "flint's flash-lock release is saved too";
}

// A tool that never asks for a save (here: this test, writing a CR-space register through the
// ConnectX-3 config window as setpci would): saved once the device has been idle.
TEST_F(KilledPciServe, WritesOfToolsThatNeverAskAreSavedOnceIdle) {
  const auto dev = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({dev}, {"--bdf", "0000:03:00.0", "--no-bar"})) return;
  constexpr std::uint32_t kAddress = 0x10000, kValue = 0x5a5a1234;
  {
    const int fd = ::open((sysfs_ / "devices" / "0000:03:00.0" / "config").c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const std::uint32_t window[2] = {kAddress, kValue};  // 0x58 address, 0x5c data: one CR-space write
    EXPECT_EQ(::pwrite(fd, window, sizeof window, 0x58), static_cast<ssize_t>(sizeof window));
    ::close(fd);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  const std::string key = std::to_string(kAddress);
  json state;
  for (;;) {
    state = saved_state(dev);
    if (!state.is_discarded() && state["registers"].contains(key)) break;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill_server();
  ASSERT_TRUE(state.is_object()) << "state.json is not readable";
  const json& registers = state["registers"];
  EXPECT_EQ(registers.is_object() ? registers.value(key, 0u) : 0u, kValue) << "not saved within 5 s of the write: " << registers.dump();
}

}  // namespace
}  // namespace openflint::test
