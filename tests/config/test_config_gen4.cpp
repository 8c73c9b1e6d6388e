// mst config on a simulated ConnectX-3 (4th generation: MNVA with the 8-byte header, MNVIA 0x9029):
// mstconfig's parameter names and spellings, defaults for items never stored, a set that keeps
// the item's other fields, reset to defaults, and values that survive a power cycle.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <regex>

#include "mtcr/registers/NvConfigRegisters.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class MstConfigGen4 : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_tool("hcasim", {"create", "--model", "connectx3", (dir_ / "cx3").string(), "--image",
                                       sample_image("connectx3-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static CommandResult mst(std::vector<std::string> args) { return run_tool("mst", std::move(args)); }
  std::map<std::string, json> query() const {
    const auto r = mst({"--json", "config", dev_, "query"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, json> out;
    const json doc = json::parse(r.out);
    for (const auto& p : doc["parameters"]) out[p["name"].get<std::string>()] = p;
    return out;
  }
  [[nodiscard]] std::unique_ptr<sim::SimDevice> load() const {
    auto d = sim::SimDevice::load_state(dir_ / "cx3");
    EXPECT_TRUE(d) << d.error().message();
    return d ? std::move(*d) : nullptr;
  }
  TempDir dir_;
  std::string dev_ = "sim:" + (dir_ / "cx3").string();
};

TEST_F(MstConfigGen4, QueryShowsMstconfigNamesWithDefaultsForItemsNeverStored) {
  const auto r = mst({"config", dev_, "query"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Device type:    ConnectX-3\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {9}LINK_TYPE_P1 {24}IB\\(1\\)\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {9}LEGACY_BOOT_PROTOCOL_P2 {13}PXE\\(1\\)\n"))) << r.out;
  const auto q = query();
  EXPECT_EQ(q.size(), 15u);  // SRIOV_EN, NUM_OF_VFS, LINK_TYPE_P1/2, LOG_BAR_SIZE, 5 boot settings x 2 ports
  EXPECT_EQ(q.at("LOG_BAR_SIZE")["next"]["value"], 3);
  EXPECT_EQ(q.at("NUM_OF_VFS")["default"]["value"], 8);
  EXPECT_EQ(q.at("LINK_TYPE_P2")["port"], 2);
  EXPECT_EQ(q.count("KEEP_ETH_LINK_UP_P1"), 0u);  // a ConnectX-4 parameter
  EXPECT_EQ(q.at("LINK_TYPE_P1")["current"], nullptr);  // 4th generation: "current" cannot be read
}

TEST_F(MstConfigGen4, SetStoresTheWholeItemAndSurvivesAPowerCycle) {
  const auto s = mst({"config", dev_, "set", "LINK_TYPE_P1=ETH", "BOOT_VLAN_P2=0x64", "sriov_en=True", "-y"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(std::regex_search(s.out, std::regex("LINK_TYPE_P1 +IB\\(1\\) +ETH\\(2\\)\n"))) << s.out;
  auto device = load();
  ASSERT_TRUE(device);
  // The stored items as MNVA carries them: per-port items keyed by port, the other boot fields kept.
  const auto& stored = device->nv_config().stored();
  const auto boot2 = stored.find(nv_reg::item_type(NvItemClass::PhysicalPort, 0x2021, 2));
  ASSERT_NE(boot2, stored.end());
  EXPECT_EQ(nv_reg::get_be32(boot2->second, 0), 0x80010064u);  // ROM enabled, PXE, VLAN 100
  EXPECT_EQ(stored.count(nv_reg::item_type(NvItemClass::PhysicalPort, 0x12, 2)), 0u);  // port 2 untouched
  device->power_cycle();
  ASSERT_TRUE(device->save_state(dir_ / "cx3"));
  const auto q = query();
  EXPECT_EQ(q.at("LINK_TYPE_P1")["next"]["text"], "ETH");
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "IB");
  EXPECT_EQ(q.at("BOOT_VLAN_P2")["next"]["value"], 100);
  EXPECT_EQ(q.at("SRIOV_EN")["next"]["value"], 1);
  EXPECT_EQ(q.at("NUM_OF_VFS")["next"]["value"], 8);  // kept from the default the item started from
}

TEST_F(MstConfigGen4, ResetInvalidatesEveryItemAndRefusalsSayWhy) {
  ASSERT_EQ(mst({"config", dev_, "set", "LINK_TYPE_P2=VPI", "-y"}).exit_code, 0);
  ASSERT_EQ(query().at("LINK_TYPE_P2")["next"]["text"], "VPI");
  const auto r = mst({"config", dev_, "reset", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(query().at("LINK_TYPE_P2")["next"]["text"], "IB");
  auto device = load();
  ASSERT_TRUE(device);
  EXPECT_TRUE(device->nv_config().stored().empty());
  for (const auto& [arg, says] : {std::pair{"LINK_TYPE_P3=ETH", "does not support parameter LINK_TYPE_P3"},
                                  std::pair{"NUM_OF_VFS=17", "bad value '17' for NUM_OF_VFS"},
                                  std::pair{"BOOT_RETRY_CNT_P1=8", "bad value '8'"},
                                  std::pair{"KEEP_IB_LINK_UP_P1=1", "unknown parameter"}}) {  // a ConnectX-4 one
    const auto bad = mst({"config", dev_, "set", arg, "-y"});
    EXPECT_NE(bad.exit_code, 0) << arg;
    EXPECT_NE(bad.err.find(says), std::string::npos) << arg << ": " << bad.err;
  }
}

}  // namespace
}  // namespace openflint::test
