// fwburn on every firmware sample: our verify/query accept the images, dc round trip,
// reproducibility, and a flipped byte in any section is detected.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>

#include "image/FirmwareImage.h"
#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

using test::Sample;

class SampleTest : public ::testing::TestWithParam<Sample> {
 protected:
  std::vector<std::uint8_t> generate(const std::string& name) {
    const auto out = dir_ / name;
    const auto r = test::run_fwburn(GetParam(), out);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    if (r.exit_code != 0) return {};
    return test::read_file(out);
  }
  test::TempDir dir_;
};

TEST_P(SampleTest, FlintVerifyAndQueryMatchTheIni) {
  const auto image = generate("img.bin");
  ASSERT_FALSE(image.empty());
  const auto path = (dir_ / "img.bin").string();
  const auto v = test::run_command({test::bin("flint").string(), "-i", path, "verify"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  const auto q = query_image(image);
  ASSERT_TRUE(q.has_value()) << q.error().message();
  const std::string ini = test::read_text(GetParam().ini);
  ASSERT_TRUE(q->fw_version.has_value());
  const std::string want = test::ini_value(ini, "fw_version");  // "13.1910.0916"
  const FwVersion& got = *q->fw_version;
  const auto dot1 = want.find('.'), dot2 = want.rfind('.');
  ASSERT_NE(dot1, dot2) << want;
  EXPECT_EQ(got, (FwVersion{static_cast<std::uint16_t>(std::stoul(want.substr(0, dot1))),
                            static_cast<std::uint16_t>(std::stoul(want.substr(dot1 + 1, dot2 - dot1 - 1))),
                            static_cast<std::uint16_t>(std::stoul(want.substr(dot2 + 1)))}))
      << want;
  EXPECT_EQ(q->psid, test::ini_value(ini, "psid"));
  EXPECT_EQ(q->image_vsd, test::ini_value(ini, "vsd"));
}

TEST_P(SampleTest, DumpConfigIsTheIniByteForByte) {
  ASSERT_FALSE(generate("img.bin").empty());
  const auto r = test::run_command({test::bin("flint").string(), "-i", (dir_ / "img.bin").string(), "dc"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, test::read_text(GetParam().ini));
}

TEST_P(SampleTest, GeneratingTwiceGivesTheSameBytes) {
  const auto a = generate("a.bin");
  const auto b = generate("b.bin");
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b);
  // The image the build made (build/firmware-samples) must be the same too, when built.
  const auto built = std::filesystem::path(OPENFLINT_BIN_DIR) / ".." / "firmware-samples" /
                     (GetParam().label() + ".bin");
  if (std::filesystem::exists(built)) {
    EXPECT_TRUE(test::read_file(built) == a) << built;
  }
}

TEST_P(SampleTest, AFlippedByteInAnySectionIsDetected) {
  const auto image = generate("img.bin");
  ASSERT_FALSE(image.empty());
  const auto clean = verify_image(image);
  ASSERT_TRUE(clean.has_value());
  ASSERT_TRUE(clean->bootable());
  int flipped = 0;
  for (const auto& s : clean->sections) {
    if (s.size == 0 || s.status != SectionStatus::Ok) continue;  // nothing to flip / CRC ignored
    auto bad = image;
    // The middle byte, or for an FS4 HW pointer (8 bytes: the pointer, then a dword whose low 16
    // bits are its CRC and whose high byte, the middle one, is reserved) the pointer's first byte.
    const std::uint64_t at = clean->image_start + s.start + (s.size <= 8 ? 0 : s.size / 2);
    ASSERT_LT(at, bad.size()) << s.name;
    bad[at] ^= 0x5a;
    const auto report = verify_image(bad);
    const bool detected = !report.has_value() || !report->bootable();
    EXPECT_TRUE(detected) << GetParam().label() << ": byte flipped at 0x" << std::hex << at << " in "
                          << s.name << " not detected";
    ++flipped;
  }
  EXPECT_GE(flipped, 5);
}

std::string sample_name(const ::testing::TestParamInfo<Sample>& info) {
  std::string n = info.param.label();
  for (auto& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(FirmwareSamples, SampleTest, ::testing::ValuesIn(test::all_samples()), sample_name);

TEST(FirmwareSamples, EveryGeneratedModelHasAnOldAndANewVersion) {
  std::map<std::string, std::set<std::string>> versions;
  for (const auto& s : test::all_samples()) versions[s.model].insert(s.version);
  for (const char* model : {"mt25204", "connectx3", "connectx4", "spectrum"})
    EXPECT_EQ(versions[model], (std::set<std::string>{"new", "old"})) << model;
}

}  // namespace
}  // namespace openflint
