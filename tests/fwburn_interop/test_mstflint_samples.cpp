// Interop: every FS2/FS3 image generated from firmware-samples passes the real mstflint's
// verify, and its query shows the INI's FW version and PSID; dc gives the INI back.
#include <gtest/gtest.h>

#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

using test::Sample;

std::vector<Sample> mstflint_samples() {
  std::vector<Sample> out;
  for (const auto& s : test::all_samples())
    // FS1 (InfiniHost III Lx, InfiniHost, InfiniHost III Ex; openflint's FS1 on InfiniScale
    // EEPROMs) is gone from current mstflint.
    if (s.model != "mt25204" && s.model != "mt23108" && s.model != "mt25208" && s.model != "mt47396" &&
        s.model != "mt43132")
      out.push_back(s);
  return out;
}

class MstflintSample : public ::testing::TestWithParam<Sample> {
 protected:
  void SetUp() override {
    if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
    const auto r = test::run_fwburn(GetParam(), image_);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  test::TempDir dir_;
  std::filesystem::path image_ = dir_ / "img.bin";
};

TEST_P(MstflintSample, VerifySucceeds) {
  const auto r = test::run_command({"mstflint", "-i", image_.string(), "verify"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("FW image verification succeeded. Image is bootable."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("wrong CRC"), std::string::npos) << r.out;
}

TEST_P(MstflintSample, QueryShowsVersionAndPsidOfTheIni) {
  const std::string ini = test::read_text(GetParam().ini);
  const auto r = test::run_command({"mstflint", "-i", image_.string(), "query"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string version = test::ini_value(ini, "fw_version"), psid = test::ini_value(ini, "psid");
  ASSERT_FALSE(version.empty());
  EXPECT_NE(r.out.find("FW Version:            " + version + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PSID:                  " + psid + "\n"), std::string::npos) << r.out;
}

TEST_P(MstflintSample, DumpConfigGivesTheIniBack) {
  const auto r = test::run_command({"mstflint", "-i", image_.string(), "dc"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // mstflint prints the INI and may add one trailing newline of its own.
  const std::string ini = test::read_text(GetParam().ini);
  EXPECT_TRUE(r.out == ini || r.out == ini + "\n") << r.out;
}

std::string sample_name(const ::testing::TestParamInfo<Sample>& info) {
  std::string n = info.param.label();
  for (auto& c : n)
    if (c == '-') c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(FirmwareSamples, MstflintSample, ::testing::ValuesIn(mstflint_samples()), sample_name);

}  // namespace
}  // namespace openflint
