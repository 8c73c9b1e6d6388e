// (e) `mst dump` and `mst reg` on each of today's switches (sim:PATH): the dump shows the hw id,
// the family's cache-replacement guard and boot-address registers by name and never reads the
// gateway's locking CMD; MGIR decodes the hw id, the port count and the running firmware.
#include <regex>

#include "tests/todays_switches/SwitchModels.h"

namespace openflint::test {
namespace {

class TodaysSwitchMst : public ::testing::TestWithParam<SwitchModel> {
 protected:
  void SetUp() override {
    const auto r = run_tool("hcasim", {"create", "--model", GetParam().model, dev_.string(), "--image",
                                       sample_image(std::string(GetParam().model) + "-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  static CommandResult mst(std::vector<std::string> args) { return run_tool("mst", std::move(args)); }
  std::uint32_t hw_id() const { return static_cast<std::uint32_t>(std::stoul(GetParam().hw_id, nullptr, 16)); }
  bool gen6() const { return std::string(GetParam().model) == "quantum2" || std::string(GetParam().model) == "spectrum4"; }
  TempDir dir_;
  std::filesystem::path dev_ = dir_ / "sw";
  std::string sim_ = "sim:" + dev_.string();
};

TEST_P(TodaysSwitchMst, DumpShowsTheFamilysRegisters) {
  const auto d = mst({"dump", sim_, "-v"});
  ASSERT_EQ(d.exit_code, 0) << d.out << d.err;
  char hw[64];
  std::snprintf(hw, sizeof hw, "0x000f0014 0x%08x # hw_id", hw_id());
  EXPECT_NE(d.out.find(hw), std::string::npos) << d.out;
  EXPECT_EQ(d.out.find("0x000f0400 0x"), std::string::npos) << "the gateway CMD was read (it takes the lock)";
  EXPECT_NE(d.out.find("# 0x000f0400 flash_gw.cmd not read"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find(std::string(GetParam().guard_register) + " 0x00000000 # flash_gw.cache_replacement_offset"),
            std::string::npos) << "no replacement pending\n" << d.out;
  EXPECT_NE(d.out.find(std::string(GetParam().boot_register) + " 0x00000000 # boot_address"), std::string::npos)
      << "booted from 0\n" << d.out;
  // The plain dump is the same words without the names.
  const auto plain = mst({"dump", sim_});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find(std::string(hw).substr(0, 21) + "\n"), std::string::npos) << plain.out;
}

TEST_P(TodaysSwitchMst, RegDecodesMgir) {
  const auto r = mst({"--json", "reg", sim_, "--reg-name", "MGIR", "--get"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  std::map<std::string, std::uint64_t> f;
  for (const auto& field : j["fields"]) f[field["name"].get<std::string>()] = field["value"].get<std::uint64_t>();
  EXPECT_EQ(f["device_id"], hw_id()) << r.out;
  const auto want = flint_query_json({"-i", sample_image(std::string(GetParam().model) + "-old").string()});
  const std::string version = want["fw_version"];
  EXPECT_EQ(std::to_string(f["extended_major"]) + "." + std::to_string(f["extended_minor"]) + "." +
                std::to_string(f["extended_sub_minor"]),
            version) << r.out;
  std::string psid;
  for (int i = 0; i < 16; ++i)
    if (f["psid[" + std::to_string(i) + "]"] != 0) psid += static_cast<char>(f["psid[" + std::to_string(i) + "]"]);
  EXPECT_EQ(psid, want["psid"]);
}

INSTANTIATE_TEST_SUITE_P(Models, TodaysSwitchMst, ::testing::ValuesIn(kTodaysSwitches), switch_model_name);

}  // namespace
}  // namespace openflint::test
