// mst status on a hand-made sysfs tree (no FUSE): driver, RDMA, net, fw_ver and NUMA from sysfs;
// probes that fail give their reason; lockdown parsing; bad input is one -E- line and its exit code.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "fwops/access/DeviceListing.h"
#include "fwops/access/HostAccess.h"
#include "fwops/access/MstLinks.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// A function folder as the kernel lays it out, with a config file of zeros (no capability list:
// config-space probing must fail with a reason, not hang).
fs::path make_function(const fs::path& root, const std::string& bdf, const std::string& vendor,
                       const std::string& device) {
  const fs::path dir = root / "devices" / bdf;
  put(dir / "vendor", vendor + "\n");
  put(dir / "device", device + "\n");
  put(dir / "revision", "0x00\n");
  put(dir / "config", std::string(256, '\0'));
  return dir;
}

class MstSysfs : public ::testing::Test {
 protected:
  // Probes open devices as flint does, locks included: ours go to the test dir, not /run.
  MstSysfs() { ::setenv("OPENFLINT_RUN_DIR", (dir_ / "run").c_str(), 1); }

  CommandResult mst(std::vector<std::string> args, std::vector<std::string> env = {}) const {
    args.insert(args.begin(), bin("mst").string());
    env.push_back("OPENFLINT_SYSFS_ROOT=" + root_.string());
    env.push_back("OPENFLINT_RUN_DIR=" + (dir_ / "run").string());
    return run_command(args, env);
  }

  TempDir dir_;
  fs::path root_ = dir_ / "bus" / "pci";
};

TEST_F(MstSysfs, ReportsDriverRdmaNetFirmwareAndSkipsOtherVendors) {
  const fs::path cx5 = make_function(root_, "0000:3b:00.0", "0x15b3", "0x1017");
  make_function(root_, "0000:3b:00.1", "0x15b3", "0x1017");
  make_function(root_, "0000:00:1f.0", "0x8086", "0x1017");  // not ours, same device id
  fs::create_directories(dir_ / "drivers" / "mlx5_core");
  fs::create_directory_symlink(dir_ / "drivers" / "mlx5_core", cx5 / "driver");
  put(cx5 / "infiniband" / "mlx5_0" / "fw_ver", "16.35.2000\n");
  fs::create_directories(cx5 / "net" / "ens1f0np0");
  put(cx5 / "numa_node", "1\n");

  auto listed = list_pci_devices(root_);
  ASSERT_TRUE(listed) << listed.error().message();
  ASSERT_EQ(listed->size(), 2u);
  const PciDeviceStatus& d = listed->front();
  EXPECT_EQ(d.function.mst_name(), "mt4119_pciconf0");
  EXPECT_EQ((*listed)[1].function.mst_name(), "mt4119_pciconf1");  // the second function of that id
  ASSERT_NE(d.info, nullptr);
  EXPECT_EQ(d.info->name, "ConnectX-5");
  EXPECT_EQ(d.driver, "mlx5_core");
  EXPECT_EQ(d.rdma, std::vector<std::string>{"mlx5_0"});
  EXPECT_EQ(d.net, std::vector<std::string>{"ens1f0np0"});
  EXPECT_EQ(d.fw_version, "16.35.2000");
  EXPECT_EQ(d.numa_node, 1);
  EXPECT_FALSE(d.config.works);
  EXPECT_FALSE(d.config.reason.empty());
  EXPECT_FALSE(d.bar.works);
  EXPECT_NE(d.bar.reason.find("resource0"), std::string::npos) << d.bar.reason;

  const auto r = mst({"status", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(r.out, nullptr, false);
  ASSERT_EQ(doc["pci"].size(), 2u) << r.out;
  EXPECT_EQ(doc["pci"][0]["driver"], "mlx5_core");
  EXPECT_EQ(doc["pci"][0]["rdma"][0], "mlx5_0");
  EXPECT_EQ(doc["pci"][0]["net"][0], "ens1f0np0");
  EXPECT_EQ(doc["pci"][0]["fw_version"], "16.35.2000");
  EXPECT_EQ(doc["pci"][0]["access"]["config"]["works"], false);
  EXPECT_TRUE(doc["pci"][0]["access"]["config"]["reason"].is_string());
  EXPECT_TRUE(doc["fabric"].is_null());  // no local port is up in this tree
  const auto text = mst({"status"});
  EXPECT_NE(text.out.find("mlx5_core  mlx5_0   net-ens1f0np0 16.35.2000"), std::string::npos) << text.out;
}

TEST_F(MstSysfs, AnEmptyTreeListsNothing) {
  fs::create_directories(root_ / "devices");
  const auto r = mst({"status"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("none (no function of vendor 0x15b3)"), std::string::npos) << r.out;
}

TEST_F(MstSysfs, LockdownModeIsTheBracketedWord) {
  put(dir_ / "lockdown", "none [integrity] confidentiality\n");
  EXPECT_EQ(kernel_lockdown_mode(dir_ / "lockdown"), "integrity");
  put(dir_ / "lockdown", "[none] integrity confidentiality\n");
  EXPECT_EQ(kernel_lockdown_mode(dir_ / "lockdown"), "none");
  EXPECT_EQ(kernel_lockdown_mode(dir_ / "absent"), "");
}

TEST_F(MstSysfs, ActiveLocalPortsAndUmadDevicesAreFound) {
  fs::create_directories(root_ / "devices");
  put(dir_ / "class" / "infiniband" / "mlx5_0" / "ports" / "1" / "state", "4: ACTIVE\n");
  put(dir_ / "class" / "infiniband" / "mlx5_0" / "ports" / "2" / "state", "1: DOWN\n");
  put(dir_ / "umad" / "umad0", "");
  put(dir_ / "umad" / "issm0", "");
  const HostAccess h = check_host_access({root_, dir_ / "umad"});
  EXPECT_EQ(h.active_ib_ports, std::vector<std::string>{"mlx5_0/1"});
  EXPECT_EQ(h.umad_ports, std::vector<std::string>{(dir_ / "umad" / "umad0").string()});
  EXPECT_TRUE(h.sysfs_readable);
}

TEST_F(MstSysfs, BadInputIsOneErrorLineAndItsExitCode) {
  const auto missing = mst({"status", "--sysfs", (dir_ / "nothing").string()});
  EXPECT_EQ(missing.exit_code, 4);
  EXPECT_EQ(missing.err, "-E- no PCI sysfs tree at " + (dir_ / "nothing").string() + " (" +
                             (dir_ / "nothing" / "devices").string() + " is not a directory)\n");
  EXPECT_TRUE(missing.out.empty()) << missing.out;

  const auto as_json = mst({"status", "--json", "--sysfs", (dir_ / "nothing").string()});
  EXPECT_EQ(as_json.exit_code, 4);
  const json doc = json::parse(as_json.out, nullptr, false);
  EXPECT_EQ(doc["ok"], false) << as_json.out;
  EXPECT_EQ(doc["error"]["code"], "not found") << as_json.out;

  if (!fs::exists("/dev/infiniband")) {  // no IB stack here: --fabric cannot discover anything
    fs::create_directories(root_ / "devices");
    const auto fabric = mst({"status", "--fabric"});
    EXPECT_EQ(fabric.exit_code, 4) << fabric.out << fabric.err;
    EXPECT_NE(fabric.err.find("-E- in-band discovery: "), std::string::npos) << fabric.err;
    EXPECT_TRUE(fabric.out.empty()) << fabric.out;
  }

  const auto usage = mst({"status", "--no-such-option"});
  EXPECT_EQ(usage.exit_code, 2) << usage.out << usage.err;

  // The link directory cannot be made (a regular file is in the way): exit 4, nothing else made.
  make_function(root_, "0000:03:00.0", "0x15b3", "0x1013");
  put(dir_ / "blocker", "x");
  const auto start = mst({"start"}, {"OPENFLINT_MST_DIR=" + (dir_ / "blocker" / "mst").string()});
  EXPECT_EQ(start.exit_code, 4) << start.out << start.err;
  EXPECT_EQ(std::count(start.err.begin(), start.err.end(), '\n'), 1) << start.err;
  EXPECT_TRUE(start.err.starts_with("-E- cannot create " + (dir_ / "blocker" / "mst").string())) << start.err;
}

// The record of our /dev/mst links is replaced, never written through a link planted in its
// place, and only names links inside the directory.
TEST(MstLinkRecord, ALinkAtTheRecordIsRefusedAndPathsInItAreNotOurs) {
  TempDir dir;
  const fs::path mst = dir.path() / "mst";
  const fs::path victim = dir.path() / "victim";
  fs::create_directories(mst);
  fs::create_symlink(victim, mst / ".openflint-links");
  auto made = create_mst_links(mst, dir.path() / "sys", {});
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code(), ErrorCode::Io);
  EXPECT_NE(made.error().message().find("not a regular file"), std::string::npos) << made.error().message();
  EXPECT_FALSE(remove_mst_links(mst));
  EXPECT_FALSE(fs::exists(fs::symlink_status(victim)));

  // A record line naming a path outside the directory: that link is not ours to remove.
  fs::remove(mst / ".openflint-links");
  const fs::path target = dir.path() / "target";
  fs::create_symlink(target, dir.path() / "outside");
  put(mst / ".openflint-links", "../outside\t" + target.string() + "\n");
  auto removed = remove_mst_links(mst);
  ASSERT_TRUE(removed) << removed.error().message();
  EXPECT_TRUE(removed->empty());
  EXPECT_TRUE(fs::is_symlink(dir.path() / "outside"));
}

}  // namespace
}  // namespace openflint::test
