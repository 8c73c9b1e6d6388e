// Interop: `flint cs` prints what `mstflint -i IMG checksum` prints, on every sample and on real FS3/FS4 images.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

// Our checksum line and mstflint's, for one image file.
void expect_same_checksum(const fs::path& image) {
  SCOPED_TRACE(image.string());
  const CommandResult ours = run_command({bin("flint").string(), "-i", image.string(), "checksum"});
  const CommandResult theirs = run_command({"mstflint", "-i", image.string(), "checksum"});
  ASSERT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_EQ(last_line(ours.out), last_line(theirs.out));
  EXPECT_TRUE(last_line(ours.out).starts_with("Checksum: ")) << ours.out;
}

TEST(ChecksumInterop, EverySampleMatchesMstflint) {
  if (!have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; checksum parity not checked";
  const fs::path dir = bin("flint").parent_path().parent_path() / "firmware-samples";
  std::vector<fs::path> images;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".bin") images.push_back(e.path());
  if (images.empty()) GTEST_SKIP() << "no samples in " << dir << " (build target firmware_samples)";
  int compared = 0;
  for (const auto& image : images) {
    const std::string file = image.filename().string();
    if (file.starts_with("mt25204") || file.starts_with("mt23108") || file.starts_with("mt25208") ||
        file.starts_with("mt47396") || file.starts_with("mt43132")) {  // FS1
      // FS1: mstflint finds no image to hash; we say not supported (exit 6).
      EXPECT_NE(run_command({"mstflint", "-i", image.string(), "checksum"}).exit_code, 0);
      EXPECT_EQ(run_command({bin("flint").string(), "-i", image.string(), "cs"}).exit_code, 6);
      continue;
    }
    expect_same_checksum(image);
    ++compared;
  }
  EXPECT_GE(compared, 6);  // connectx3 (FS2), connectx4 + spectrum (FS3), spectrum2 (FS4) when present
}

// The first board of the oldest and newest Spectrum (FS3) archive and of every Spectrum-2 (FS4) one.
TEST(ChecksumInterop, RealImagesMatchMstflint) {
  if (!have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; checksum parity not checked";
  const auto real = real_firmware_dir();
  if (!real) GTEST_SKIP() << "real firmware directory (../shared/firmware/real) is absent or has no *.mfa";
  std::vector<fs::path> spc, spc2;
  for (const auto& e : fs::directory_iterator(*real)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".mfa") continue;
    (name.starts_with("fw-SPC2-") ? spc2 : name.starts_with("fw-SPC-") ? spc : spc2).push_back(e.path());
  }
  std::sort(spc.begin(), spc.end());
  std::vector<fs::path> archives = spc2;
  if (!spc.empty()) {
    archives.push_back(spc.front());
    archives.push_back(spc.back());
  }
  if (archives.empty()) GTEST_SKIP() << "no Spectrum archives in " << *real;
  TempDir dir;
  for (const auto& archive : archives) {
    SCOPED_TRACE(archive.string());
    const CommandResult list = run_command({bin("flint").string(), "-i", archive.string(), "archive", "list", "--json"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    const auto boards = nlohmann::json::parse(list.out)["boards"];
    ASSERT_FALSE(boards.empty());
    const std::string psid = boards.front()["psid"];
    const fs::path out = dir.path() / (archive.stem().string() + ".bin");
    const CommandResult x = run_command({bin("flint").string(), "-i", archive.string(), "archive", "extract", "--psid",
                                         psid, "-o", out.string()});
    ASSERT_EQ(x.exit_code, 0) << x.err;
    expect_same_checksum(out);
  }
}

}  // namespace
}  // namespace openflint::test
