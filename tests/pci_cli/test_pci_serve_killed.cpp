// A killed `hcasim pci-serve` (SIGKILL: no unmount): the tools name the dead mount and the remedy
// instead of "no PCI device" (exit 4), and a new pci-serve on the same mount point serves again.
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

}  // namespace
}  // namespace openflint::test
