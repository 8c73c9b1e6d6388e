// test_infiniscale_cli: hcasim and flint on simulated InfiniScale III (MT47396) and InfiniScale
// (MT43132), whose firmware sits in I2C EEPROMs: create (blank and --image), query at the
// switch's own hw-id register, failsafe burn old -> new keeping the board's GUIDs, verify,
// rw / ww / erase, read-image, the write-protect refusal, and the write-cycle polling counters.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

class InfiniScaleCli : public ::testing::Test {
 protected:
  std::string dev_path() const { return (dir_ / "dev").string(); }
  std::string dev() const { return "sim:" + dev_path(); }
  static std::string sample(const std::string& name) { return sample_image(name).string(); }
  static CommandResult flint(std::vector<std::string> args) { return run_tool("flint", std::move(args)); }
  static bool has(const CommandResult& r, const std::string& text) {
    return r.out.find(text) != std::string::npos || r.err.find(text) != std::string::npos;
  }
  TempDir dir_;
};

TEST_F(InfiniScaleCli, HcasimListsTheSwitches) {
  const auto r = run_tool("hcasim", {"create", "--help"});
  EXPECT_TRUE(has(r, "mt47396")) << r.out;
  EXPECT_TRUE(has(r, "mt43132")) << r.out;
}

TEST_F(InfiniScaleCli, CreateQueryBurnVerifyKeepsTheBoardGuids) {
  auto r = run_tool("hcasim", {"create", "--model", "mt47396", dev_path()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "4x24C512")) << r.out;
  r = flint({"-d", dev(), "q"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // blank EEPROMs: no image, but the part was found
  EXPECT_TRUE(has(r, "InfiniScale III")) << r.out << r.err;
  r = flint({"-d", dev(), "-i", sample("mt47396-old"), "-y", "--guid", "0x0002c90300bbbb00", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "FS1 failsafe image, sector size 0x1000")) << r.out;
  r = flint({"-d", dev(), "-i", sample("mt47396-new"), "-y", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "GUIDs/MACs from the device: GUIDs 0x0002c90300bbbb00")) << r.out << r.err;
  ASSERT_EQ(flint({"-d", dev(), "reset", "-y"}).exit_code, 0);
  r = flint({"-d", dev(), "q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "5.9.0001")) << r.out;
  EXPECT_TRUE(has(r, "0x0002c90300bbbb00")) << r.out;
  EXPECT_FALSE(has(r, "0x0002c90200c02")) << r.out;  // none of the image's GUIDs
  // The burner polled through the EEPROMs' write cycles (counted by the simulator).
  const auto show = run_tool("hcasim", {"show", dev_path(), "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const auto at = show.out.find("\"i2c_nacks\": ");
  ASSERT_NE(at, std::string::npos) << show.out;
  EXPECT_GT(std::stoull(show.out.substr(at + 13)), 0u) << show.out;
}

TEST_F(InfiniScaleCli, CreateWithImageWordsEraseAndReadImage) {
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "mt47396", "--image", sample("mt47396-old"), dev_path()}).exit_code, 0);
  auto r = flint({"-d", dev(), "q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "5.9.0000")) << r.out;
  r = flint({"-d", dev(), "ww", "0x30004", "0x12345678"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x30004"}).out, "0x12345678\n");
  r = flint({"-d", dev(), "ww", "0x30004", "0xcafef00d"});  // 0 -> 1 bits: an EEPROM just rewrites
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x30004"}).out, "0xcafef00d\n");
  r = flint({"-d", dev(), "erase", "0x30000"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x30004"}).out, "0xffffffff\n");
  const std::string out = (dir_ / "read.bin").string();
  r = flint({"-d", dev(), "ri", out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-i", out, "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST_F(InfiniScaleCli, WriteProtectRefusesWithOneLineAndChangesNothing) {
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "mt47396", "--image", sample("mt47396-old"), dev_path()}).exit_code, 0);
  const auto before = read_file(dir_ / "dev" / "flash.bin");
  // The write-protect pin: the simulator's write-protect fault, set in the saved state.
  const auto state_path = dir_ / "dev" / "state.json";
  const auto state = read_file(state_path);
  std::string text(state.begin(), state.end());
  const std::string off = "\"flash_write_protected\": false";
  const auto at = text.find(off);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, off.size(), "\"flash_write_protected\": true");
  write_file(state_path, std::vector<std::uint8_t>(text.begin(), text.end()));
  const auto r = flint({"-d", dev(), "-i", sample("mt47396-new"), "-y", "burn"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r, "write-protect pin is asserted")) << r.out << r.err;
  EXPECT_EQ(read_file(dir_ / "dev" / "flash.bin"), before);
}

TEST_F(InfiniScaleCli, InfiniScaleGen1BurnsToo) {
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "mt43132", dev_path()}).exit_code, 0);
  auto r = flint({"-d", dev(), "-i", sample("mt43132-new"), "-y", "--guid", "0x0002c90300cccc00", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "q"});
  EXPECT_TRUE(has(r, "1.4.0001")) << r.out;
}

}  // namespace
}  // namespace openflint::test
