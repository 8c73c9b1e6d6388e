// test_switchx_cli: hcasim and flint on a simulated SwitchX (MT51000) through the real binaries:
// create, query (4 GUIDs with the port GUIDs 0, 2 MACs), failsafe burn old -> new keeping the
// board's identity, verify, rw / ww / erase / ri, a held bit-31 lock, the cache-replacement
// guard and its override.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

class SwitchXCli : public ::testing::Test {
 protected:
  std::string dev_path() const { return (dir_ / "dev").string(); }
  std::string dev() const { return "sim:" + dev_path(); }
  static std::string sample(const char* version) { return sample_image(std::string("switchx-") + version).string(); }
  CommandResult flint(std::vector<std::string> args) const { return run_tool("flint", std::move(args)); }
  static bool has(const CommandResult& r, const std::string& text) {
    return r.out.find(text) != std::string::npos || r.err.find(text) != std::string::npos;
  }
  // A 4 MiB part: each tool run loads and saves the whole array, and these tests do not need 16 MiB.
  void create_with_image(const char* version) {
    const auto r = run_tool("hcasim", {"create", "--model", "switchx", "--flash", "N25Q032A", "--image",
                                       sample(version), dev_path()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  // Edits the saved device state (what another agent or the firmware left behind).
  void edit_state(const std::function<void(nlohmann::json&)>& edit) const {
    const auto path = std::filesystem::path(dev_path()) / "state.json";
    nlohmann::json state;
    std::ifstream(path) >> state;
    edit(state);
    std::ofstream(path) << state.dump();
  }
  TempDir dir_;
};

TEST_F(SwitchXCli, CreateQueryBurnOldToNewKeepsTheBoardIdentity) {
  auto r = run_tool("hcasim", {"create", "--model", "switchx", dev_path()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "N25Q128A")) << r.out;
  r = flint({"-d", dev(), "q"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;  // blank flash: no image, but the part was probed
  EXPECT_TRUE(has(r, "0x245")) << r.out;
  // First burn (blank flash, non-failsafe as MFTDOC documents for SwitchX): the board's GUIDs
  // given as node 0 0 sysimg, and its MACs.
  r = flint({"-d", dev(), "-i", sample("old"), "-y", "--nofs", "--guids", "0x0002c90300cccc00", "0", "0",
             "0x0002c90300cccc03", "--macs", "0x0002c9cccc00", "0x0002c9cccc01", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The new release, failsafe: GUIDs, MACs and VSD stay the board's.
  r = flint({"-d", dev(), "-i", sample("new"), "-y", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "reset", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-d", dev(), "q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r, "9.4.5110")) << r.out;
  EXPECT_TRUE(has(r, "0x0002c90300cccc00")) << r.out;
  EXPECT_TRUE(has(r, "0x0002c90300cccc03")) << r.out;
  EXPECT_TRUE(has(r, "0x0002c9cccc00")) << r.out;
  EXPECT_TRUE(has(r, "0x0002c9cccc01")) << r.out;
  EXPECT_FALSE(has(r, "0x0002c90300b040")) << r.out;  // none of the image's GUIDs
  EXPECT_TRUE(has(r, "openflint sample switchx old")) << r.out;  // the board's VSD
  EXPECT_TRUE(has(r, "MT_1010210020")) << r.out;
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto show = run_tool("hcasim", {"show", dev_path()});
  EXPECT_TRUE(has(show, "9.4.5110")) << show.out;
}

TEST_F(SwitchXCli, TheSampleQueriesFourGuidsWithZeroPortGuidsAndTwoMacs) {
  const auto r = flint({"-i", sample("old"), "q", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string text = j.dump();
  EXPECT_NE(text.find("0x0002c90300b04000"), std::string::npos) << text;  // node
  EXPECT_NE(text.find("0x0002c90300b04003"), std::string::npos) << text;  // system image
  EXPECT_EQ(text.find("0x0002c90300b04001"), std::string::npos) << text;  // port 1: 0
  EXPECT_NE(text.find("0x0002c9b04000"), std::string::npos) << text;
  EXPECT_NE(text.find("0x0002c9b04001"), std::string::npos) << text;
  EXPECT_EQ(flint({"-i", sample("old"), "v"}).exit_code, 0);
}

TEST_F(SwitchXCli, WordReadWriteEraseAndReadImage) {
  create_with_image("old");
  auto r = flint({"-d", dev(), "ww", "0x200004", "0x12345678"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x200004"}).out, "0x12345678\n");
  r = flint({"-d", dev(), "ww", "0x200004", "0xcafef00d"});  // needs 0 -> 1 bits: an erase
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x200004"}).out, "0xcafef00d\n");
  r = flint({"-d", dev(), "erase", "0x200000"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(flint({"-d", dev(), "rw", "0x200004"}).out, "0xffffffff\n");
  const std::string out = (dir_ / "ri.bin").string();
  r = flint({"-d", dev(), "ri", out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-i", out, "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = flint({"-i", out, "q"});
  EXPECT_EQ(r.out, flint({"-i", sample("old"), "q"}).out);
}

TEST_F(SwitchXCli, ALockHeldInCmdBit31MakesFlintWaitThenGiveUp) {
  create_with_image("old");
  edit_state([](nlohmann::json& s) { s["flash_locked"] = true; });  // another agent holds bit 31
  const auto busy = flint({"-d", dev(), "--lock-timeout", "50", "q"});
  EXPECT_EQ(busy.exit_code, 5) << busy.out << busy.err;
  EXPECT_TRUE(has(busy, "flash lock at 0xf0400 is held by another agent")) << busy.err;
  ASSERT_EQ(flint({"-d", dev(), "clear_semaphore"}).exit_code, 0);
  EXPECT_EQ(flint({"-d", dev(), "q"}).exit_code, 0);
}

TEST_F(SwitchXCli, CacheReplacementGuardRefusesUnlessOverridden) {
  create_with_image("old");
  edit_state([](nlohmann::json& s) { s["faults"]["cache_replacement_pending"] = true; });
  auto r = flint({"-d", dev(), "q"});
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r, "replacing a flash cache line")) << r.err;
  EXPECT_TRUE(has(r, "--ocr")) << r.err;
  r = flint({"-d", dev(), "-i", sample("new"), "-y", "burn"});
  EXPECT_NE(r.exit_code, 0) << r.out;
  r = flint({"-d", dev(), "-i", sample("new"), "-y", "--override_cache_replacement", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // The override made the firmware finish the replacement: later tools find the gateway free.
  r = flint({"-d", dev(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace openflint::test
