// (a) The unmodified mstflint queries and verifies each generated sample of today's switches, and
// what it reads agrees with our `flint q --json`: version, date, PSID, GUID/MAC bases and counts,
// VSD, security version; both verify the image bootable.
#include <regex>

#include "tests/pci_cli/PciServeFixture.h"
#include "tests/todays_switches/SwitchModels.h"

namespace openflint::test {
namespace {

struct SampleCase {
  SwitchModel model;
  const char* version;  // old / new
};

void PrintTo(const SampleCase& c, std::ostream* os) { *os << c.model.model << " " << c.version; }

class TodaysSwitchSample : public ::testing::TestWithParam<SampleCase> {
 protected:
  void SetUp() override {
    if (!have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; our images not checked against it";
    ASSERT_TRUE(std::filesystem::exists(image())) << image() << " was not built (target firmware_samples)";
  }
  std::filesystem::path image() const {
    return sample_image(std::string(GetParam().model.model) + "-" + GetParam().version);
  }
};

// mstflint prints "Base GUID:   0002c903007a1000        4": the base without 0x, then the count.
std::pair<std::string, std::string> base_and_count(const std::string& out, const std::string& name) {
  const std::regex line("(^|\n)" + name + ":\\s+([0-9a-fA-F]+)\\s+([0-9]+)");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return {};
  return {m[2].str(), m[3].str()};
}

TEST_P(TodaysSwitchSample, MstflintQueryAgreesWithOurs) {
  const auto ours = flint_query_json({"-i", image().string()});
  ASSERT_EQ(ours["image_type"], "FS4") << ours.dump(2);
  const auto theirs = run_command({"mstflint", "-i", image().string(), "q"});
  ASSERT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
  EXPECT_EQ(query_field(theirs.out, "Image type"), "FS4") << theirs.out;
  EXPECT_EQ(query_field(theirs.out, "FW Version"), ours["fw_version"]) << theirs.out;
  EXPECT_EQ(query_field(theirs.out, "FW Release Date"), ours["release_date"]) << theirs.out;
  EXPECT_EQ(query_field(theirs.out, "PSID"), ours["psid"]) << theirs.out;
  EXPECT_EQ(query_field(theirs.out, "Image VSD"), ours["image_vsd"]) << theirs.out;
  EXPECT_EQ(query_field(theirs.out, "Security Ver"), std::to_string(ours["security_version"].get<int>()));
  const auto [guid, guids] = base_and_count(theirs.out, "Base GUID");
  EXPECT_EQ("0x" + guid, ours["base_guid"]["base"]) << theirs.out;
  EXPECT_EQ(guids, std::to_string(ours["base_guid"]["count"].get<int>())) << theirs.out;
  const auto [mac, macs] = base_and_count(theirs.out, "Base MAC");
  EXPECT_EQ(hex64(std::stoull(mac, nullptr, 16)), ours["base_mac"]["base"]) << theirs.out;
  EXPECT_EQ(macs, std::to_string(ours["base_mac"]["count"].get<int>())) << theirs.out;
  // The sample is the switch's own: its hw id, the version family of its real releases, MCC.
  const std::string hw = GetParam().model.hw_id;
  ASSERT_EQ(ours["supported_hw_ids"].size(), 1u) << ours.dump(2);
  EXPECT_EQ(std::stoul(ours["supported_hw_ids"][0].get<std::string>(), nullptr, 16), std::stoul(hw, nullptr, 16));
  EXPECT_TRUE(ours["component_update"].get<bool>()) << ours.dump(2);
}

TEST_P(TodaysSwitchSample, MstflintVerifiesItBootable) {
  const auto theirs = run_command({"mstflint", "-i", image().string(), "v"});
  ASSERT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
  EXPECT_NE(theirs.out.find("FS4 failsafe image"), std::string::npos) << theirs.out;
  EXPECT_NE(theirs.out.find("Image is bootable"), std::string::npos) << theirs.out;
  EXPECT_EQ(theirs.out.find("FAIL"), std::string::npos) << theirs.out;
  for (const char* section : {"(IMAGE_INFO) - OK", "(MAIN_CODE) - OK", "(DEV_INFO) - OK", "(MFG_INFO) - OK"})
    EXPECT_NE(theirs.out.find(section), std::string::npos) << section << "\n" << theirs.out;
  const auto ours = run_tool("flint", {"-i", image().string(), "v"});
  EXPECT_EQ(ours.exit_code, 0) << ours.out << ours.err;
}

std::vector<SampleCase> sample_cases() {
  std::vector<SampleCase> cases;
  for (const auto& m : kTodaysSwitches)
    for (const char* v : {"old", "new"}) cases.push_back({m, v});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Samples, TodaysSwitchSample, ::testing::ValuesIn(sample_cases()),
                         [](const ::testing::TestParamInfo<SampleCase>& c) {
                           return std::string(c.param.model.model) + "_" + c.param.version;
                         });

}  // namespace
}  // namespace openflint::test
