// Interop: generated FS2 images must pass the real mstflint's verify and query, line for line.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "image/Fs2Image.h"
#include "image/Fs2Writer.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

using test::run_command;

struct PrintedSection {
  std::uint64_t start = 0;
  std::uint64_t size = 0;
  std::string name;
  std::string status;
};

// mstflint verify lines: "     /0x00000038-0x00000057 (0x000020)/ (BOOT2) - OK".
std::vector<PrintedSection> parse_verify(const std::string& out) {
  static const std::regex line(R"(/0x([0-9a-f]{8})-0x[0-9a-f]{8} \(0x([0-9a-f]+)\)/ \(([^)]+)\)(.*))");
  std::vector<PrintedSection> sections;
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it) {
    const auto& m = *it;
    sections.push_back({std::stoull(m[1], nullptr, 16), std::stoull(m[2], nullptr, 16), m[3],
                        m[4].str().find("- OK") != std::string::npos ? "OK" : "wrong CRC"});
  }
  return sections;
}

class MstflintInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
  }

  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const auto path = dir_ / name;
    test::write_file(path, bytes);
    return path.string();
  }

  // Runs mstflint verify and checks every printed section against our own report.
  void expect_verify_agrees(const std::string& path, const std::vector<std::uint8_t>& image,
                            bool striped_flag = false) {
    std::vector<std::string> argv{"mstflint", "-i", path};
    if (striped_flag) argv.push_back("--striped_image");
    argv.push_back("verify");
    const auto r = run_command(argv);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("FW image verification succeeded"), std::string::npos) << r.out << r.err;
    auto ours = fs2::verify(image, 0);
    ASSERT_TRUE(ours.has_value());
    EXPECT_TRUE(ours->bootable());
    const auto theirs = parse_verify(r.out);
    ASSERT_EQ(theirs.size(), ours->sections.size()) << r.out;
    for (std::size_t i = 0; i < theirs.size(); ++i) {
      EXPECT_EQ(theirs[i].name, ours->sections[i].name);
      EXPECT_EQ(theirs[i].start, ours->sections[i].start) << theirs[i].name;
      EXPECT_EQ(theirs[i].size, ours->sections[i].size) << theirs[i].name;
      EXPECT_EQ(theirs[i].status, to_string(ours->sections[i].status)) << theirs[i].name;
    }
  }

  void expect_query_shows(const std::string& path, const std::vector<std::string>& lines) {
    const auto r = run_command({"mstflint", "-i", path, "query"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    for (const auto& l : lines) EXPECT_NE(r.out.find(l + "\n"), std::string::npos) << "missing '" << l << "' in\n" << r.out;
  }

  test::TempDir dir_;
};

Fs2ImageSpec base_spec() {
  Fs2ImageSpec s;
  s.fw_version = {2, 42, 5000};
  s.release_date = ReleaseDate{2019, 9, 23};
  s.psid = "MT_1090120019";
  s.vsd = "openflint interop";
  s.base_guid = 0x0002c90300a1b2c0ull;
  s.base_mac = 0x0002c9a1b2c0ull;
  s.ini = "[PS_INFO]\nName = interop\n";
  std::vector<std::uint8_t> ddr(8192);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i * 13 + 1);
  s.sections.push_back({gph::kDdr, ddr, 0});
  s.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(256, 0x42), 0});
  s.sections.push_back({gph::kJmp, std::vector<std::uint8_t>(16, 0x01), 0});
  return s;
}

TEST_F(MstflintInterop, FailsafeImageWithIni) {
  const auto spec = base_spec();
  const auto image = write_fs2_image(spec);
  ASSERT_TRUE(image.has_value()) << image.error().message();
  const auto path = write("fs2_failsafe.bin", *image);
  expect_verify_agrees(path, *image);
  expect_query_shows(path, {"Image type:            FS2", "FW Version:            2.42.5000",
                            "PSID:                  MT_1090120019", "VSD:                   openflint interop",
                            "FW Release Date:       23.9.2019"});
  const auto dc = run_command({"mstflint", "-i", path, "dc"});
  EXPECT_EQ(dc.exit_code, 0) << dc.err;
  EXPECT_NE(dc.out.find(spec.ini), std::string::npos) << dc.out;
}

TEST_F(MstflintInterop, NonFailsafeImageWithFullImageCrc) {
  auto spec = base_spec();
  spec.failsafe = false;
  spec.fw_version = {2, 10, 720};
  spec.psid = "MT_0DD0120009";
  spec.mic_version = FwVersion{1, 0, 0};
  spec.ini.clear();
  spec.sections.push_back({gph::kEmt, std::vector<std::uint8_t>(37, 0x7e), 0});
  spec.product_version = "2.10.0720";
  const auto image = write_fs2_image(spec);
  ASSERT_TRUE(image.has_value());
  const auto path = write("fs2_plain.bin", *image);
  expect_verify_agrees(path, *image);
  expect_query_shows(path, {"FW Version:            2.10.0720", "PSID:                  MT_0DD0120009",
                            "Product Version:       2.10.0720", "Device ID:             4099",
                            "GUIDs:                 0002c90300a1b2c0 0002c90300a1b2c1 0002c90300a1b2c2 0002c90300a1b2c3 "});
}

TEST_F(MstflintInterop, StripedFlashDumpWithStripedFlag) {
  auto spec = base_spec();
  spec.log2_chunk_size = 16;
  spec.sections[0].data.resize(150000, 0x3c);
  spec.striped = true;
  const auto image = write_fs2_image(spec);
  ASSERT_TRUE(image.has_value());
  const auto path = write("fs2_striped.bin", *image);
  expect_verify_agrees(path, *image, /*striped_flag=*/true);
}

TEST_F(MstflintInterop, CorruptionIsSeenByBothTools) {
  const auto image = write_fs2_image(base_spec());
  ASSERT_TRUE(image.has_value());
  auto bad = *image;
  bad[0x38 + 0x20 + 16 + 100] ^= 0x01;  // inside the DDR payload (BOOT2 is 0x20 bytes)
  const auto path = write("fs2_bad.bin", bad);
  const auto r = run_command({"mstflint", "-i", path, "verify"});
  EXPECT_NE(r.exit_code, 0);
  const auto theirs = parse_verify(r.out);
  ASSERT_GE(theirs.size(), 2u) << r.out;
  EXPECT_EQ(theirs[1].name, "DDR");
  EXPECT_EQ(theirs[1].status, "wrong CRC");
  auto ours = fs2::verify(bad, 0);
  ASSERT_TRUE(ours.has_value());
  EXPECT_EQ(ours->sections[1].name, "DDR");
  EXPECT_EQ(ours->sections[1].status, SectionStatus::WrongCrc);
  EXPECT_FALSE(ours->bootable());
}

}  // namespace
}  // namespace openflint
