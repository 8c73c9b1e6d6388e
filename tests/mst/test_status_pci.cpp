// mst status/start/stop against simulated devices served by `hcasim pci-serve`: ids, MST names,
// catalog devices (a recovery-mode one included), access methods, /dev/mst links flint accepts.
#include <gtest/gtest.h>

#include <chrono>
#include <map>

#include <nlohmann/json.hpp>

#include <stdlib.h>

#include "fwops/Device.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class MstStatus : public PciServeFixture {
 protected:
  CommandResult mst(std::vector<std::string> args, std::vector<std::string> env = {}) const {
    args.insert(args.begin(), bin("mst").string());
    auto all = tool_env();
    all.insert(all.end(), env.begin(), env.end());
    return run_command(args, all);
  }

  // The status document, or a failure.
  json status_json() const {
    const auto r = mst({"status", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return json::parse(r.out, nullptr, false);
  }

  static const json* by_bdf(const json& doc, const std::string& bdf) {
    for (const auto& d : doc["pci"])
      if (d["bdf"] == bdf) return &d;
    return nullptr;
  }

  fs::path recovery_device() {  // no image on flash: the boot ROM finds nothing and stays in recovery
    const auto dir = dir_ / "rec";
    const auto r = run_tool("hcasim", {"create", "--model", "connectx4", dir.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return dir;
  }
};

TEST_F(MstStatus, ListsServedDevicesWithIdsNamesAccessAndRecovery) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  const auto rec = recovery_device();
  if (!serve({cx4, cx3, rec})) return;
  const json doc = status_json();
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["ok"], true);
  EXPECT_EQ(doc["sysfs"], sysfs_.string());
  ASSERT_EQ(doc["pci"].size(), 3u) << doc.dump(2);

  const json* a = by_bdf(doc, "0000:03:00.0");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ((*a)["device"], "ConnectX-4");
  EXPECT_EQ((*a)["device_id"], "0x1013");
  EXPECT_EQ((*a)["vendor_id"], "0x15b3");
  EXPECT_EQ((*a)["mst_name"], "mt4115_pciconf0");
  EXPECT_EQ((*a)["mst_bar_name"], "mt4115_pci_cr0");
  EXPECT_EQ((*a)["recovery"], false);
  EXPECT_EQ((*a)["access"]["config"]["works"], true);
  EXPECT_EQ((*a)["access"]["config"]["hw_id"], "0x0209");
  EXPECT_EQ((*a)["access"]["bar"]["works"], true);
  EXPECT_EQ((*a)["access"]["bar"]["hw_id"], "0x0209");
  EXPECT_TRUE((*a)["driver"].is_null());  // the served tree binds no driver
  EXPECT_TRUE((*a)["rdma"].empty());
  // The running firmware from MGIR through the ICMD mailbox (no driver, no fw_ver here).
  EXPECT_EQ((*a)["fw_version"], image_version(sample_image("connectx4-old"))) << a->dump(2);
  EXPECT_EQ((*a)["fw_source"], "mgir");

  const json* b = by_bdf(doc, "0000:04:00.0");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ((*b)["device"], "ConnectX-3");
  EXPECT_EQ((*b)["device_id"], "0x1003");
  EXPECT_EQ((*b)["mst_name"], "mt4099_pciconf0");
  EXPECT_EQ((*b)["access"]["config"]["hw_id"], "0x01f5");  // through the 0x58 window
  // No ICMD mailbox: MGIR through the firmware's tools HCR.
  EXPECT_EQ((*b)["fw_version"], image_version(sample_image("connectx3-old"))) << b->dump(2);

  // Recovery: the function shows the catalog's recovery id, the MST name follows it.
  const json* c = by_bdf(doc, "0000:05:00.0");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ((*c)["device"], "ConnectX-4");
  EXPECT_EQ((*c)["recovery"], true);
  EXPECT_EQ((*c)["device_id"], "0x0209");
  EXPECT_EQ((*c)["normal_device_id"], "0x1013");
  EXPECT_EQ((*c)["mst_name"], "mt521_pciconf0");
  EXPECT_EQ((*c)["access"]["config"]["works"], true);

  // The text forms say the same.
  const auto text = mst({"status"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("mt4115_pciconf0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("ConnectX-4 (recovery)"), std::string::npos) << text.out;
  const auto verbose = mst({"status", "-v"});
  EXPECT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_NE(verbose.out.find("recovery mode: PCI id 0x0209 (normal 0x1013)"), std::string::npos) << verbose.out;
  EXPECT_NE(verbose.out.find("config space: works (hw id 0x01f5)"), std::string::npos) << verbose.out;

  // Each name mst printed opens the device it described.
  const auto q = flint({"-d", "mt4099_pciconf0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), image_version(sample_image("connectx3-old"))) << q.out;
}

TEST_F(MstStatus, WithoutBarTheReasonIsGivenAndConfigSpaceStillWorks) {
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx3}, {"--no-bar"})) return;
  const json doc = status_json();
  ASSERT_EQ(doc["pci"].size(), 1u) << doc.dump(2);
  const json& d = doc["pci"][0];
  EXPECT_EQ(d["device"], "ConnectX-3");
  EXPECT_EQ(d["access"]["config"]["works"], true);
  EXPECT_EQ(d["access"]["bar"]["works"], false);
  EXPECT_NE(d["access"]["bar"]["reason"].get<std::string>().find("resource0"), std::string::npos) << d.dump(2);
  const auto v = mst({"status", "-v"});
  EXPECT_NE(v.out.find("BAR0: no: no resource0"), std::string::npos) << v.out;
}

TEST_F(MstStatus, ADeviceAnotherToolHoldsIsReportedBusyNotTouched) {
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx3}, {"--no-bar"})) return;
  ::setenv("OPENFLINT_RUN_DIR", run_dir_.c_str(), 1);  // the same lock files as the tools
  DeviceOpenOptions options;
  options.sysfs_root = sysfs_;
  auto held = open_pci_device("pciconf-03:00.0", options);  // as a flint in the middle of a burn
  ASSERT_TRUE(held) << held.error().message();
  const auto start = std::chrono::steady_clock::now();
  const json doc = status_json();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  ASSERT_EQ(doc["pci"].size(), 1u) << doc.dump(2);
  EXPECT_EQ(doc["pci"][0]["device"], "ConnectX-3");  // from the PCI id, without CR-space
  EXPECT_EQ(doc["pci"][0]["access"]["config"]["works"], false);
  EXPECT_NE(doc["pci"][0]["access"]["config"]["reason"].get<std::string>().find("busy"), std::string::npos)
      << doc.dump(2);
}

TEST_F(MstStatus, StartMakesLinksFlintOpensAndStopRemovesOnlyOurs) {
  const auto cx4 = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  const auto cx3 = create_device("cx3", "connectx3", sample_image("connectx3-old"));
  if (!serve({cx4, cx3}, {"--no-bar"})) return;
  const fs::path links = dir_ / "dev-mst";
  const std::vector<std::string> env{"OPENFLINT_MST_DIR=" + links.string()};
  fs::create_directories(links);
  fs::create_symlink("/nowhere", links / "mt4115_pciconf0");  // someone else's entry: left alone
  fs::create_symlink("/elsewhere", links / "foreign");

  const auto start = mst({"start", "--json"}, env);
  ASSERT_EQ(start.exit_code, 0) << start.out << start.err;
  const json doc = json::parse(start.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << start.out;
  EXPECT_EQ(doc["host"]["root"], ::geteuid() == 0);
  EXPECT_EQ(doc["host"]["sysfs_readable"], true);
  std::map<std::string, std::string> states;
  for (const auto& l : doc["links"]) states[l["name"]] = l["state"];
  EXPECT_EQ(states["mt4115_pciconf0"], "conflict");
  EXPECT_EQ(states["mt4099_pciconf0"], "created");
  EXPECT_EQ(states.count("mt4099_pci_cr0"), 0u);  // no BAR served: no BAR name
  EXPECT_EQ(fs::read_symlink(links / "mt4099_pciconf0"), sysfs_ / "devices" / "0000:04:00.0");
  EXPECT_EQ(fs::read_symlink(links / "mt4115_pciconf0"), "/nowhere");

  // A second start keeps what is there; the link's name is what flint resolves.
  const auto again = mst({"start"}, env);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("mt4099_pciconf0 -> " + (sysfs_ / "devices" / "0000:04:00.0").string() + " (kept)"),
            std::string::npos) << again.out;
  EXPECT_NE(again.out.find("BAR0 no (no resource0"), std::string::npos) << again.out;
  const auto q = flint({"-d", "/dev/mst/mt4099_pciconf0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "Device"), "ConnectX-3 (MT27500, HCA)") << q.out;

  const auto stop = mst({"stop"}, env);
  EXPECT_EQ(stop.exit_code, 0) << stop.out << stop.err;
  EXPECT_FALSE(fs::exists(fs::symlink_status(links / "mt4099_pciconf0")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(links / "mt4115_pciconf0")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(links / "foreign")));
  EXPECT_FALSE(fs::exists(links / ".openflint-links"));
  EXPECT_TRUE(fs::is_directory(links));  // not ours to remove

  const auto stop2 = mst({"stop", "--json"}, env);  // nothing left of ours: a no-op
  EXPECT_EQ(stop2.exit_code, 0) << stop2.err;
  EXPECT_EQ(json::parse(stop2.out, nullptr, false)["links"].size(), 0u) << stop2.out;
}

}  // namespace
}  // namespace openflint::test
