// Tests: every real vendor MFA archive opens, lists the expected boards and yields the
// expected first/last board images (sha256 computed independently, see expected.tsv), and on
// those images our flint agrees with the real mstflint (query, verify, corrupted MAIN_CODE).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "image/MfaArchive.h"
#include "tests/realfw/MstflintParity.h"
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
// (No std::regex: GCC 12 warns inside it under -fsanitize, which -Werror turns fatal.)
std::optional<FwVersion> version_from_name(const std::string& name) {
  const std::size_t at = name.find("rel-");
  if (at == std::string::npos) return std::nullopt;
  std::istringstream in(name.substr(at + 4));
  unsigned major = 0, minor = 0, subminor = 0;
  char sep1 = 0, sep2 = 0;
  if (!(in >> major >> sep1 >> minor >> sep2 >> subminor) || sep1 != '_' || sep2 != '_')
    return std::nullopt;
  return FwVersion{static_cast<std::uint16_t>(major), static_cast<std::uint16_t>(minor),
                   static_cast<std::uint16_t>(subminor)};
}

// "| name.mfa | 602947584 | 36 |" -> its three cells; false for other lines.
bool readme_row(const std::string& line, std::string& name, std::uint64_t& bytes, std::size_t& boards) {
  std::istringstream in(line);
  std::string bar1, bar2, bar3, bar4;
  if (!(in >> bar1 >> name >> bar2 >> bytes >> bar3 >> boards >> bar4)) return false;
  return bar1 == "|" && bar2 == "|" && bar3 == "|" && bar4 == "|" && name.ends_with(".mfa");
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
  // Parity with the reference tool on both boards.
  if (!have_program("mstflint")) {
    ADD_FAILURE() << "mstflint is not installed (scripts/setup.sh installs it): parity not checked";
    return;
  }
  {
    SCOPED_TRACE("first board " + extracted->first_psid);
    expect_mstflint_parity(extracted->first_path, dir.path());
  }
  {
    SCOPED_TRACE("last board " + extracted->last_psid);
    expect_mstflint_parity(extracted->last_path, dir.path());
  }
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
  std::size_t rows = 0;
  for (std::string line; std::getline(readme, line);) {
    std::string name;
    std::uint64_t bytes = 0;
    std::size_t boards = 0;
    if (!readme_row(line, name, bytes, boards)) continue;
    ++rows;
    const auto it = expected.find(name);
    ASSERT_NE(it, expected.end()) << name;
    EXPECT_EQ(it->second.data_unpacked_bytes, bytes) << name;
    EXPECT_EQ(it->second.boards, boards) << name;
  }
  EXPECT_EQ(rows, expected.size());
}

}  // namespace
}  // namespace openflint::test
