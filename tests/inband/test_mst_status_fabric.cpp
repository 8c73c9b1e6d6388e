// mst status --fabric on an ibsim fabric: every node with its LID name, type, device and running
// firmware (MGIR), no flash reads; without a fabric, --fabric is one -E- line.
#include <nlohmann/json.hpp>

#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class MstFabric : public DeviceFabricFixture {};

TEST_F(MstFabric, ListsInbandNodesWithRunningFirmware) {
  const auto sw = dir_.path() / "sw.bin";
  const auto cx4 = dir_.path() / "cx4.bin";
  write_file(sw, small_fs3_image(10, "MT_1780110032", 0x249));
  write_file(cx4, small_fs3_image(20));
  bring_up({{"Switch1", "spectrum", sw}, {"Hca2", "connectx4", cx4}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto empty_tree = dir_.path() / "pci";
  std::filesystem::create_directories(empty_tree / "devices");  // no PCI devices: the fabric alone

  auto r = run({"env", "OPENFLINT_SYSFS_ROOT=" + empty_tree.string(), bin("mst").string(), "status", "--fabric", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << r.out;
  EXPECT_TRUE(doc["pci"].empty());
  ASSERT_TRUE(doc["fabric"].is_array()) << r.out;
  EXPECT_EQ(doc["fabric"].size(), 3u) << r.out;  // the switch, Hca1 (local, no responder), Hca2
  bool saw_switch = false, saw_hca = false;
  for (const auto& n : doc["fabric"]) {
    if (n["lid"] == lids_["Switch1"]) {
      saw_switch = true;
      EXPECT_EQ(n["name"], lid_name("Switch1"));
      EXPECT_EQ(n["type"], "switch");
      EXPECT_EQ(n["device"], "Spectrum");
      EXPECT_EQ(n["fw_version"], "12.10.1000");
    } else if (n["lid"] == lids_["Hca2"]) {
      saw_hca = true;
      EXPECT_EQ(n["type"], "hca");
      EXPECT_EQ(n["device"], "ConnectX-4");
      EXPECT_EQ(n["psid"], "MT_2190110032");
      EXPECT_EQ(n["fw_version"], "12.20.1000");
    }
  }
  EXPECT_TRUE(saw_switch && saw_hca) << r.out;

  auto text = run({"env", "OPENFLINT_SYSFS_ROOT=" + empty_tree.string(), bin("mst").string(), "status", "--fabric"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("In-band devices:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(lid_name("Hca2")), std::string::npos) << text.out;
}

}  // namespace
}  // namespace openflint::test
