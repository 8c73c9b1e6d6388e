// Tests: every real vendor MFA archive opens, lists the expected boards and yields the
// expected first/last board images (sha256 computed independently, see expected.tsv).
#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>

#include "image/MfaArchive.h"
#include "tests/realfw/RealFirmware.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

// Parameter used when there is nothing to list, so the suite still reports a clear skip.
constexpr const char* kNoArchives = "no_real_firmware";

std::vector<std::string> archive_params() {
  auto names = real_archive_names();
  if (names.empty()) names.push_back(kNoArchives);
  return names;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  if (name.size() > 4 && name.ends_with(".mfa")) name.resize(name.size() - 4);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// "fw-SPC-rel-13_2000_1658-EVB.mfa" -> 13.2000.1658: the release the file name announces.
std::optional<FwVersion> version_from_name(const std::string& name) {
  static const std::regex pattern(R"(rel-(\d+)_(\d+)_(\d+))");
  std::smatch m;
  if (!std::regex_search(name, m, pattern)) return std::nullopt;
  return FwVersion{static_cast<std::uint16_t>(std::stoi(m[1])), static_cast<std::uint16_t>(std::stoi(m[2])),
                   static_cast<std::uint16_t>(std::stoi(m[3]))};
}

class MfaRealArchive : public ::testing::TestWithParam<std::string> {};

TEST_P(MfaRealArchive, OpensListsAndExtractsFirstAndLastBoard) {
  if (GetParam() == kNoArchives)
    GTEST_SKIP() << "real firmware directory (../shared/firmware/real) is absent or has no *.mfa";
  const fs::path path = *real_firmware_dir() / GetParam();
  const auto expected_all = load_expected_archives();
  const auto row = expected_all.find(GetParam());
  ASSERT_NE(row, expected_all.end()) << GetParam() << " is not in tests/realfw/expected.tsv "
                                     << "(regenerate it with tests/realfw/make_expected.py)";
  const ExpectedArchive& expected = row->second;

  auto archive = MfaArchive::open(path.string());
  ASSERT_TRUE(archive.has_value()) << archive.error().message();
  ASSERT_EQ(archive->boards().size(), expected.boards);
  EXPECT_EQ(archive->data_unpacked_size(), expected.data_unpacked_bytes);
  const auto release = version_from_name(GetParam());
  for (const MfaBoard& board : archive->boards()) {
    ASSERT_NE(board.firmware(), nullptr) << board.psid;
    EXPECT_FALSE(board.part_number.empty()) << board.psid;
    EXPECT_FALSE(board.description.empty()) << board.psid;
    EXPECT_EQ(board.fw_version, release) << board.psid;
  }
  EXPECT_EQ(archive->boards().front().psid, expected.first_psid);
  EXPECT_EQ(archive->boards().back().psid, expected.last_psid);

  TempDir dir;
  auto extracted = extract_first_and_last(path, dir.path());
  ASSERT_TRUE(extracted.has_value()) << extracted.error().message();
  EXPECT_EQ(extracted->first_psid, expected.first_psid);
  EXPECT_EQ(extracted->last_psid, expected.last_psid);
  EXPECT_EQ(fs::file_size(extracted->first_path), archive->boards().front().firmware()->data_size);
  EXPECT_EQ(fs::file_size(extracted->last_path), archive->boards().back().firmware()->data_size);
  EXPECT_EQ(sha256sum(extracted->first_path), expected.first_sha256) << extracted->first_psid;
  EXPECT_EQ(sha256sum(extracted->last_path), expected.last_sha256) << extracted->last_psid;
  // Integrator hook: mstflint parity checks on extracted->first_path / last_path go here.
}

INSTANTIATE_TEST_SUITE_P(Real, MfaRealArchive, ::testing::ValuesIn(archive_params()), test_name);

TEST(MfaRealExpected, TableMatchesDirectoryAndReadme) {
  const auto dir = real_firmware_dir();
  if (!dir) GTEST_SKIP() << "real firmware directory (../shared/firmware/real) is absent";
  const auto expected = load_expected_archives();
  const auto names = real_archive_names();
  ASSERT_FALSE(expected.empty()) << "tests/realfw/expected.tsv is missing or empty";
  EXPECT_EQ(expected.size(), names.size());
  for (const auto& name : names) EXPECT_TRUE(expected.contains(name)) << name;
  // README.md table rows: | archive | unpacked DATA bytes | boards |
  std::ifstream readme(*dir / "README.md");
  static const std::regex row(R"(^\|\s*(\S+\.mfa)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|)");
  std::size_t rows = 0;
  for (std::string line; std::getline(readme, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    ++rows;
    const auto it = expected.find(m[1]);
    ASSERT_NE(it, expected.end()) << m[1];
    EXPECT_EQ(it->second.data_unpacked_bytes, std::stoull(m[2])) << m[1];
    EXPECT_EQ(it->second.boards, std::stoull(m[3])) << m[1];
  }
  EXPECT_EQ(rows, expected.size());
}

}  // namespace
}  // namespace openflint::test
