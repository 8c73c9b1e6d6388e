// test_legacy_cli: hcasim and flint on simulated InfiniHost (MT23108) and InfiniHost III Ex
// (MT25208) through the real binaries: create, query, failsafe burn keeping the board's GUIDs,
// verify, rw / ww / erase, read-image; the fwburn samples for both.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

struct Model {
  const char* name;
  const char* chip;
  const char* hw_id;
  const char* sector;  // the FS1 sector = the part's erase block
};

class LegacyCli : public ::testing::TestWithParam<Model> {
 protected:
  std::string dev_path() const { return (dir_ / "dev").string(); }
  std::string dev() const { return "sim:" + dev_path(); }
  std::string sample(const char* version) const {
    return sample_image(std::string(GetParam().name) + "-" + version).string();
  }
  CommandResult flint(std::vector<std::string> args) const { return run_tool("flint", std::move(args)); }
  static bool has(const CommandResult& r, const std::string& text) {
    return r.out.find(text) != std::string::npos || r.err.find(text) != std::string::npos;
  }
  TempDir dir_;
};

TEST_P(LegacyCli, CreateQueryBurnVerifyKeepsTheBoardGuids) {
  const Model& m = GetParam();
  auto r = run_tool("hcasim", {"create", "--model", m.name, dev_path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(m.chip), std::string::npos) << r.out;
  r = flint({"-d", dev(), "q"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // blank flash: no image, but the part was probed
  EXPECT_TRUE(has(r, std::string("HW ID:                 ") + m.hw_id)) << r.out;
  EXPECT_TRUE(has(r, std::string(m.chip) + " (jedec")) << r.out;
  // First burn: the board's own GUIDs, unlike the image's.
  r = flint({"-d", dev(), "-i", sample("old"), "-y", "--guid", "0x0002c90300aaaa00", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, std::string("FS1 failsafe image, sector size ") + m.sector)) << r.out;
  EXPECT_TRUE(has(r, "Image is bootable")) << r.out;
  // The new release, failsafe: the GUIDs stay the board's.
  r = flint({"-d", dev(), "-i", sample("new"), "-y", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "GUIDs/MACs from the device: GUIDs 0x0002c90300aaaa00")) << r.out << r.err;
  r = flint({"-d", dev(), "reset", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "0x0002c90300aaaa00")) << r.out;
  EXPECT_FALSE(has(r, "0x0002c90200")) << r.out;  // none of the image's GUIDs
  EXPECT_TRUE(has(r, "FW Version(Running):   ")) << r.out;
  const auto show = run_tool("hcasim", {"show", dev_path()});
  EXPECT_TRUE(has(show, "booted copy at")) << show.out;
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST_P(LegacyCli, WordReadWriteEraseAndReadImage) {
  const Model& m = GetParam();
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", m.name, "--image", sample("old"), dev_path()}).exit_code, 0);
  auto r = flint({"-d", dev(), "ww", "0x200004", "0x12345678"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x200004"}).out, "0x12345678\n");
  r = flint({"-d", dev(), "ww", "0x200004", "0xcafef00d"});  // needs 0 -> 1 bits: an erase
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x200004"}).out, "0xcafef00d\n");
  r = flint({"-d", dev(), "erase", "0x200000"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x200004"}).out, "0xffffffff\n");
  // The image read back is the burned one: it verifies and queries as the sample.
  const std::string out = (dir_ / "ri.bin").string();
  r = flint({"-d", dev(), "ri", out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-i", out, "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-i", out, "q"});
  EXPECT_TRUE(has(r, "PSID:")) << r.out;
  const auto original = flint({"-i", sample("old"), "q"});
  EXPECT_EQ(r.out, original.out);
}

TEST_P(LegacyCli, FwburnSamplesAreFs1ForTheDevice) {
  const Model& m = GetParam();
  for (const char* v : {"old", "new"}) {
    const auto r = flint({"-i", sample(v), "q"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(has(r, "Image type:            FS1")) << r.out;
    EXPECT_TRUE(has(r, std::string("Supported HW IDs:      ") + m.hw_id)) << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Legacy, LegacyCli,
                         ::testing::Values(Model{"mt23108", "Am29LV033C", "0x5a44", "0x10000"},
                                           Model{"mt25208", "28F320J3", "0x6278", "0x20000"}),
                         [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace openflint::test
