// mst config on simulated devices (sim:PATH): query/set/reset/show_confs, next-boot vs current
// values across a reset and a power cycle, idempotent sets, and one -E- line with a documented
// exit code for every refusal. The library (fwops/registers/NvConfig) is checked on the same devices.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <map>
#include <regex>

#include "fwops/Device.h"
#include "fwops/registers/NvConfig.h"
#include "mtcr/registers/NvConfigRegisters.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class MstConfig : public ::testing::Test {
 protected:
  void SetUp() override { create("cx4", "connectx4", sample_image("connectx4-old")); }
  std::string create(const std::string& name, const std::string& model, const std::filesystem::path& image) {
    const auto dir = dir_ / name;
    std::vector<std::string> args{"create", "--model", model, dir.string()};
    if (!image.empty()) args.insert(args.end(), {"--image", image.string()});
    const auto r = run_tool("hcasim", args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return "sim:" + dir.string();
  }
  static CommandResult mst(std::vector<std::string> args) { return run_tool("mst", std::move(args)); }
  static void expect_one_error_line(const CommandResult& r) {
    EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // name → {default, current, next} texts from `mst --json config DEV query`.
  std::map<std::string, json> query(const std::string& dev) const {
    const auto r = mst({"--json", "config", dev, "query"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, json> out;
    const json doc = json::parse(r.out);
    for (const auto& p : doc["parameters"]) out[p["name"].get<std::string>()] = p;
    return out;
  }
  TempDir dir_;
  std::string sim_ = "sim:" + (dir_ / "cx4").string();
};

TEST_F(MstConfig, QueryListsTheFamilysParametersWithMstconfigSpellings) {
  const auto r = mst({"config", sim_, "query"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Device type:    ConnectX-4\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Configurations:                              Next Boot\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {9}LINK_TYPE_P1 {24}IB\\(1\\)\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {9}SRIOV_EN {28}False\\(0\\)\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {9}NUM_OF_VFS {26}8\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {9}LEGACY_BOOT_PROTOCOL {16}PXE\\(1\\)\n"))) << r.out;
  // Per-port items port by port; capability items are not parameters.
  EXPECT_LT(r.out.find("KEEP_LINK_UP_ON_STANDBY_P1"), r.out.find("KEEP_ETH_LINK_UP_P2"));
  EXPECT_EQ(r.out.find("max_vfs_per_pf"), std::string::npos);
  const auto q = query(sim_);
  EXPECT_EQ(q.size(), 20u);
  EXPECT_EQ(q.at("LINK_TYPE_P2")["port"], 2);
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "IB");
  EXPECT_EQ(q.at("SRIOV_EN")["port"], nullptr);
}

TEST_F(MstConfig, SetChangesNextBootOnlyUntilAReset) {
  const auto s = mst({"config", sim_, "set", "LINK_TYPE_P1=ETH", "sriov_en=true", "NUM_OF_VFS=0x4", "-y"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(std::regex_search(s.out, std::regex("LINK_TYPE_P1 +IB\\(1\\) +ETH\\(2\\)\n"))) << s.out;
  EXPECT_NE(s.out.find("take effect at the next reset"), std::string::npos) << s.out;
  auto q = query(sim_);
  EXPECT_EQ(q.at("LINK_TYPE_P1")["next"]["text"], "ETH");
  EXPECT_EQ(q.at("LINK_TYPE_P1")["current"]["text"], "IB");
  EXPECT_EQ(q.at("LINK_TYPE_P1")["pending"], true);
  EXPECT_EQ(q.at("SRIOV_EN")["next"]["value"], 1);
  EXPECT_EQ(q.at("NUM_OF_VFS")["next"]["value"], 4);
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "IB");  // the other port untouched
  const auto e = mst({"config", sim_, "query", "-e", "LINK_TYPE_P1"});
  EXPECT_TRUE(std::regex_search(e.out, std::regex("\n\\* {8}LINK_TYPE_P1 +IB\\(1\\) +IB\\(1\\) +ETH\\(2\\)\n"))) << e.out;

  ASSERT_EQ(mst({"reset", sim_, "-y"}).exit_code, 0);
  q = query(sim_);
  EXPECT_EQ(q.at("LINK_TYPE_P1")["current"]["text"], "ETH");
  EXPECT_EQ(q.at("LINK_TYPE_P1")["pending"], false);
  EXPECT_EQ(q.at("LINK_TYPE_P1")["default"]["text"], "IB");
  // The stored configuration survives power cycles (NV), and a power cycle is a boot too.
  auto dev = sim::SimDevice::load_state(dir_ / "cx4");
  ASSERT_TRUE(dev) << dev.error().message();
  (*dev)->power_cycle();
  EXPECT_EQ((*dev)->nv_config().current(), (*dev)->nv_config().stored());
  EXPECT_EQ((*dev)->nv_config().stored().size(), 2u);  // two items written: link type P1, global PCI
}

TEST_F(MstConfig, ResetReturnsEveryParameterToItsDefaultAtTheNextBoot) {
  ASSERT_EQ(mst({"config", sim_, "set", "LINK_TYPE_P2=ETH", "CQE_COMPRESSION=AGGRESSIVE", "-y"}).exit_code, 0);
  ASSERT_EQ(mst({"reset", sim_, "-y"}).exit_code, 0);
  const auto r = mst({"config", sim_, "reset", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto q = query(sim_);
  EXPECT_EQ(q.at("LINK_TYPE_P2")["next"]["text"], "IB");
  EXPECT_EQ(q.at("LINK_TYPE_P2")["current"]["text"], "ETH");
  EXPECT_EQ(q.at("CQE_COMPRESSION")["next"]["text"], "BALANCED");
  ASSERT_EQ(mst({"reset", sim_, "-y"}).exit_code, 0);
  EXPECT_EQ(query(sim_).at("LINK_TYPE_P2")["current"]["text"], "IB");
}

TEST_F(MstConfig, ASetOfTheValuesAlreadyThereWritesNothing) {
  ASSERT_EQ(mst({"config", sim_, "set", "SRIOV_EN=1", "-y"}).exit_code, 0);
  auto before = sim::SimDevice::load_state(dir_ / "cx4");
  ASSERT_TRUE(before);
  const auto r = mst({"--json", "config", sim_, "set", "SRIOV_EN=True", "LINK_TYPE_P1=IB"});  // no -y needed
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_TRUE(j["changed"].empty()) << r.out;
  auto after = sim::SimDevice::load_state(dir_ / "cx4");
  ASSERT_TRUE(after);
  EXPECT_EQ((*after)->nv_config().stored(), (*before)->nv_config().stored());
  // --no is a dry run: exit 7, nothing written, and the document lists what would change.
  const auto dry = mst({"--json", "config", sim_, "set", "NUM_OF_VFS=2", "SRIOV_EN=True", "--no"});
  EXPECT_EQ(dry.exit_code, 7) << dry.err;
  const auto d = json::parse(dry.out);
  EXPECT_EQ(d["ok"], false);
  EXPECT_EQ(d["json_version"], 1);
  ASSERT_EQ(d["changed"].size(), 1u) << dry.out;  // SRIOV_EN already is True
  EXPECT_EQ(d["changed"][0]["name"], "NUM_OF_VFS");
  EXPECT_EQ(d["changed"][0]["new"]["value"], 2);
  auto untouched = sim::SimDevice::load_state(dir_ / "cx4");
  ASSERT_TRUE(untouched);
  EXPECT_EQ((*untouched)->nv_config().stored(), (*before)->nv_config().stored());
  const auto c = json::parse(mst({"--json", "config", sim_, "set", "NUM_OF_VFS=2", "-y"}).out);
  ASSERT_EQ(c["changed"].size(), 1u);
  EXPECT_EQ(c["changed"][0]["old"]["value"], 8);
  EXPECT_EQ(c["changed"][0]["new"]["value"], 2);
}

TEST_F(MstConfig, RefusalsAreOneLineWithTheirExitCodes) {
  struct Case {
    std::vector<std::string> args;
    int exit;
    std::string says;
  };
  const std::vector<Case> cases{
      {{"set", "FOO=1", "-y"}, 2, "unknown parameter FOO"},
      {{"query", "BAR"}, 2, "unknown parameter BAR"},
      {{"set", "LINK_TYPE_P3=ETH", "-y"}, 6, "does not support parameter LINK_TYPE_P3"},
      {{"set", "LINK_TYPE_P1=VPI", "-y"}, 2, "bad value 'VPI' for LINK_TYPE_P1 (accepted: IB|ETH)"},
      {{"set", "NUM_OF_VFS=17", "-y"}, 2, "(accepted: <NUM 0..16>)"},
      {{"set", "SRIOV_EN=2", "-y"}, 2, "(accepted: False|True)"},
      {{"set", "SRIOV_EN", "-y"}, 2, "'SRIOV_EN' is not NAME=VALUE"},
      {{"set", "-y"}, 2, "set needs NAME=VALUE"},
      {{"frobnicate"}, 2, "unknown config command 'frobnicate'"},
      {{"set", "SRIOV_EN=1"}, 7, "declined: nothing was written"},  // stdin is not a terminal: "no"
      {{"reset"}, 7, "declined: nothing was written"},
  };
  auto before = sim::SimDevice::load_state(dir_ / "cx4");
  ASSERT_TRUE(before);
  for (const auto& c : cases) {
    std::vector<std::string> args{"config", sim_};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = mst(args);
    EXPECT_EQ(r.exit_code, c.exit) << c.args.front() << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    if (c.exit != 7) expect_one_error_line(r);  // a decline also says why nobody was asked
  }
  auto after = sim::SimDevice::load_state(dir_ / "cx4");
  ASSERT_TRUE(after);
  EXPECT_TRUE((*after)->nv_config().stored().empty());  // nothing of the above wrote anything
}

TEST_F(MstConfig, DevicesWithoutItSayWhy) {
  const auto ih = create("ih", "mt25204", {});
  const auto sx = create("sx", "spectrum", sample_image("spectrum-old"));
  const auto blank = create("blank", "connectx4", {});  // no firmware runs
  const auto blank3 = create("blank3", "connectx3", {});
  for (const auto& [dev, says] : {std::pair{ih, "no non-volatile configuration is known"},
                                  std::pair{sx, "no non-volatile configuration is known"},
                                  std::pair{blank, "is firmware running?"},
                                  std::pair{blank3, "is firmware 2.31.5000 or later running?"}}) {
    const auto r = mst({"config", dev, "query"});
    EXPECT_EQ(r.exit_code, 6) << dev << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    expect_one_error_line(r);
  }
}

TEST_F(MstConfig, ShowConfsListsNamesValuesAndDescriptions) {
  const auto r = mst({"config", sim_, "show_confs"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("List of configurations the device " + sim_ + " may support:"), std::string::npos);
  EXPECT_NE(r.out.find("\t\tVPI LINK TYPE:\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {20}LINK_TYPE_P1=<IB\\|ETH> +the port's protocol"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n {20}SRIOV_EN=<False\\|True> +expose"))) << r.out;
  const auto j = json::parse(mst({"--json", "config", sim_, "i"}).out);
  EXPECT_EQ(j["parameters"].size(), 20u);
}

// The library on its own: what a set sends is one read-modify-write per touched item, the valid
// bit goes with the value, and the other fields of the item are kept.
TEST_F(MstConfig, LibrarySetKeepsTheItemsOtherFieldsAndSetsValidBits) {
  auto device = open_device(sim_);
  ASSERT_TRUE(device) << device.error().message();
  auto config = NvConfig::open(*device);
  ASSERT_TRUE(config) << config.error().message();
  EXPECT_TRUE(config->reads_factory());
  EXPECT_TRUE(config->reads_current());
  // Another writer (mstconfig) stored the item with a field openflint does not name set.
  const std::uint32_t type = nv_reg::item_type(NvItemClass::Global, 0x10a);
  std::vector<std::uint8_t> offload(8, 0);
  offload[4] = 0x12;  // LRO timeouts in the second dword
  device->simulator()->nv_config().store(type, offload);
  auto cqe = config->parse_assignment("CQE_COMPRESSION=aggressive");
  auto vfs = config->parse_assignment("NUM_OF_VFS=3");
  ASSERT_TRUE(cqe && vfs);
  const std::uint64_t before = config->accesses();
  ASSERT_TRUE(config->set(std::vector<NvAssignment>{*cqe, *vfs}));
  EXPECT_EQ(config->accesses() - before, 4u);  // two items: a read and a write each
  const auto& stored = device->simulator()->nv_config().stored();
  ASSERT_EQ(stored.count(type), 1u);
  EXPECT_EQ(stored.at(type)[4], 0x12);  // kept
  EXPECT_EQ(stored.at(type)[3] & 0x7, 1);  // CQE_COMPRESSION = AGGRESSIVE
  const auto& pci = stored.at(nv_reg::item_type(NvItemClass::Global, 0x80));
  EXPECT_EQ(pci[0] & 0x80, 0x80);  // sriov_valid set with NUM_OF_VFS
  EXPECT_EQ(nv_reg::get_be32(pci, 4) & 0xffff, 3u);
}

}  // namespace
}  // namespace openflint::test
