// Today's adapters, each model: (a) the real mstflint queries and verifies our generated samples
// and reads what our flint reads; (c) our failsafe burn keeps the board's identity, and a device
// running MCC firmware takes the burn through its firmware; (d) mst dump, config, reg, vpd and
// reset on the simulated device.
#include <regex>

#include "tests/pci_cli/PciServeFixture.h"
#include "tests/todays_adapters/TodaysAdapters.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class TodaysAdapters : public ::testing::TestWithParam<std::string> {
 protected:
  std::string model() const { return GetParam(); }
  void SetUp() override {
    if (!fs::exists(model_sample(model(), "new"))) GTEST_SKIP() << "no sample " << model_sample(model(), "new");
  }
  // A simulated board of the model, factory-burned with `image` patched to `ids`.
  std::string make_board(const std::string& name, const fs::path& image, const BoardIds& ids) {
    const auto patched = board_image(dir_.path(), name, image, ids);
    const auto c = run_tool("hcasim", {"create", "--model", model(), (dir_ / name).string(), "--image", patched.string()});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    return "sim:" + (dir_ / name).string();
  }
  static void expect_identity(const json& q, const BoardIds& ids) {
    EXPECT_EQ(q["base_guid"]["base"], hex16(ids.guid)) << q.dump(2);
    EXPECT_EQ(q["base_mac"]["base"], hex16(ids.mac)) << q.dump(2);
    EXPECT_EQ(q["device_vsd"], ids.vsd) << q.dump(2);
  }
  static CommandResult mst(std::vector<std::string> args) { return run_tool("mst", std::move(args)); }
  TempDir dir_;
  const BoardIds a_{0x0002c90300c1c100ull, 0x0002c9c1c100ull, "board A"};
  const BoardIds b_{0x0002c90300c2c200ull, 0x0002c9c2c200ull, "board B"};
};

TEST_P(TodaysAdapters, MstflintQueriesAndVerifiesOurSamplesAsOurFlintDoes) {
  if (!have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; samples not checked by it";
  for (const char* version : {"old", "new"}) {
    SCOPED_TRACE(model() + "-" + version);
    const auto image = model_sample(model(), version);
    const json ours = flint_query({"-i", image.string()});
    ASSERT_FALSE(ours.is_discarded());
    const auto v = run_command({"mstflint", "-i", image.string(), "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("FS4 failsafe image"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("FW image verification succeeded. Image is bootable."), std::string::npos) << v.out;
    const auto q = run_command({"mstflint", "-i", image.string(), "q"});
    ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_EQ(query_field(q.out, "Image type"), "FS4") << q.out;
    EXPECT_EQ(query_field(q.out, "FW Version"), ours["fw_version"].get<std::string>()) << q.out;
    EXPECT_EQ(query_field(q.out, "PSID"), ours["psid"].get<std::string>()) << q.out;
    EXPECT_EQ(query_field(q.out, "Image VSD"), ours["image_vsd"].get<std::string>()) << q.out;
    // "Base GUID:  0002c90300a06000        4": ours without 0x, the count beside it.
    const std::string guid = ours["base_guid"]["base"].get<std::string>().substr(2);
    const std::string mac = ours["base_mac"]["base"].get<std::string>().substr(6);
    EXPECT_TRUE(std::regex_search(q.out, std::regex("Base GUID: +" + guid + " +" +
                                                    std::to_string(ours["base_guid"]["count"].get<int>()))))
        << q.out;
    EXPECT_TRUE(std::regex_search(q.out, std::regex("Base MAC: +" + mac + " +"))) << q.out;
  }
}

// Two samples of one family, distinct PSIDs across families, the record's hw id supported.
TEST_P(TodaysAdapters, SamplesAreOneBoardOfTheModelsFamily) {
  const json old_q = flint_query({"-i", model_sample(model(), "old").string()});
  const json new_q = flint_query({"-i", model_sample(model(), "new").string()});
  EXPECT_EQ(old_q["psid"], new_q["psid"]);
  EXPECT_NE(old_q["fw_version"], new_q["fw_version"]);
  EXPECT_EQ(old_q["fw_version"].get<std::string>().substr(0, 3), new_q["fw_version"].get<std::string>().substr(0, 3));
  for (const auto& other : kTodaysAdapters) {
    if (other == model() || !fs::exists(model_sample(other, "old"))) continue;
    EXPECT_NE(flint_query({"-i", model_sample(other, "old").string()})["psid"], old_q["psid"]) << other;
  }
  const auto show = run_tool("hcasim", {"create", "--model", model(), (dir_ / "d").string()});
  ASSERT_EQ(show.exit_code, 0) << show.out << show.err;
  const std::regex hw("HW ID: +(0x[0-9a-f]+)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(show.out, m, hw)) << show.out;
  EXPECT_EQ(new_q["supported_hw_ids"], json::array({m[1].str()})) << show.out;
}

TEST_P(TodaysAdapters, FailsafeBurnKeepsTheBoardsIdentity) {
  const std::string a = make_board("a", model_sample(model(), "old"), a_);
  const auto r = run_tool("flint", {"-d", a, "-i", model_sample(model(), "new").string(), "-y", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("GUIDs/MACs from the device"), std::string::npos) << r.err;
  const json q = flint_query({"-d", a});
  EXPECT_EQ(q["fw_version"], flint_query({"-i", model_sample(model(), "new").string()})["fw_version"]);
  expect_identity(q, a_);
  const auto v = run_tool("flint", {"-d", a, "v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

// A board running firmware built with MCC: our default burn goes through the firmware (MCC/MCDA),
// keeps the board's identity, and the new copy runs after the reset.
TEST_P(TodaysAdapters, BurnThroughTheRunningFirmware) {
  const auto old_mcc = mcc_sample(dir_.path(), model(), "old"), new_mcc = mcc_sample(dir_.path(), model(), "new");
  EXPECT_EQ(flint_query({"-i", old_mcc.string()})["component_update"], true);
  const std::string b = make_board("b", old_mcc, b_);
  const auto r = run_tool("flint", {"-d", b, "-i", new_mcc.string(), "-y", "--json", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json burn = json::parse(r.out, nullptr, false);
  EXPECT_EQ(burn["path"], "firmware") << r.out;
  const auto reset = run_tool("flint", {"-d", b, "-y", "reset"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  const json q = flint_query({"-d", b});
  EXPECT_EQ(q["fw_version"], flint_query({"-i", new_mcc.string()})["fw_version"]) << q.dump(2);
  expect_identity(q, b_);
  const auto shown = run_tool("hcasim", {"show", (dir_ / "b").string(), "--json"});
  EXPECT_NE(shown.out.find("\"fw_version\": \"" + q["fw_version"].get<std::string>() + "\""), std::string::npos)
      << shown.out;
}

// mst's device commands on the model: each shows the model's own facts.
TEST_P(TodaysAdapters, MstCommandsShowTheModelsFacts) {
  const std::string a = make_board("a", model_sample(model(), "old"), a_);
  const std::string version = flint_query({"-i", model_sample(model(), "old").string()})["fw_version"];
  const auto created = run_tool("hcasim", {"show", (dir_ / "a").string()});
  std::smatch m;
  ASSERT_TRUE(std::regex_search(created.out, m, std::regex("HW ID: +0x([0-9a-f]+)"))) << created.out;
  const std::string hw_id = std::string(8 - m[1].length(), '0') + m[1].str();  // 00000212

  const auto dump = mst({"dump", a});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_NE(dump.out.find("0x000f0014 0x" + hw_id + "\n"), std::string::npos) << dump.out;

  const auto reg = mst({"reg", a, "--reg-name", "MGIR", "--get"});
  ASSERT_EQ(reg.exit_code, 0) << reg.err;
  EXPECT_TRUE(std::regex_search(reg.out, std::regex("\nhw_dev_id +\\| 0x" + hw_id + " *\n"))) << reg.out;

  const auto config = mst({"--json", "config", a, "query"});
  ASSERT_EQ(config.exit_code, 0) << config.err;
  const json params = json::parse(config.out, nullptr, false);
  ASSERT_FALSE(params.is_discarded()) << config.out;
  EXPECT_GE(params["parameters"].size(), 20u) << config.out;
  const auto set = mst({"config", a, "set", "SRIOV_EN=1", "-y"});
  EXPECT_EQ(set.exit_code, 0) << set.out << set.err;

  const auto vpd = mst({"vpd", a});
  ASSERT_EQ(vpd.exit_code, 0) << vpd.err;
  EXPECT_NE(vpd.out.find("SN:"), std::string::npos) << vpd.out;
  ASSERT_TRUE(std::regex_search(created.out, m, std::regex("Device: +(.+) \\(model"))) << created.out;
  EXPECT_NE(vpd.out.find("ID:      " + m[1].str() + " "), std::string::npos) << vpd.out;

  const auto burn = run_tool("flint", {"-d", a, "-i", model_sample(model(), "new").string(), "-y", "burn"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  const auto running = [&] {  // the running firmware's version, as hcasim shows it
    const auto shown = run_tool("hcasim", {"show", (dir_ / "a").string(), "--json"});
    const json j = json::parse(shown.out, nullptr, false);
    return j.is_discarded() ? std::string() : j["running"].value("fw_version", std::string());
  };
  EXPECT_EQ(running(), version) << "the old firmware runs until the reset";
  const auto reset = mst({"reset", a, "-y"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  EXPECT_EQ(running(), flint_query({"-i", model_sample(model(), "new").string()})["fw_version"]);
  // The NV item set before the reset is the current value after it.
  const json after = json::parse(mst({"--json", "config", a, "query"}).out, nullptr, false);
  ASSERT_FALSE(after.is_discarded());
  bool found = false;
  for (const auto& p : after["parameters"]) {
    if (p["name"] != "SRIOV_EN") continue;
    found = true;
    EXPECT_EQ(p["current"]["value"], 1) << p.dump(2);
  }
  EXPECT_TRUE(found) << after.dump(2);
}

INSTANTIATE_TEST_SUITE_P(Models, TodaysAdapters, ::testing::ValuesIn(kTodaysAdapters), model_name);

}  // namespace
}  // namespace openflint::test
