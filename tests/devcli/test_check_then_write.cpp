// Check, then write: every refused or declined flash write leaves the flash byte-identical.
#include <gtest/gtest.h>

#include "tests/devcli/SampleDevice.h"

namespace openflint::test {
namespace {

class CheckThenWrite : public SampleDeviceTest {
 protected:
  // Runs flint on the device and expects `exit_code` and an unchanged flash.
  void expect_refused(std::initializer_list<std::string> args, int exit_code) {
    // A kernel-side copy and a chunked compare: no whole-flash buffers in the test process.
    const std::filesystem::path before = dir_ / "before-refused.bin";
    std::filesystem::copy_file(flash_path(), before, std::filesystem::copy_options::overwrite_existing);
    std::vector<std::string> argv{bin("flint").string(), "-d", dev()};
    argv.insert(argv.end(), args.begin(), args.end());
    const CommandResult r = run_command(argv);
    EXPECT_EQ(r.exit_code, exit_code) << r.out << r.err;
    EXPECT_TRUE(same_bytes(flash_path(), before)) << "flash changed by a refused command: " << r.err;
  }
  std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
  }
  // Foreign data in the journal sector: power-cut-safe rewrites have no scratch area.
  void fill_scratch() {
    auto bytes = flash();
    for (std::size_t i = bytes.size() - 0x1000; i < bytes.size() - 0xf00; ++i) bytes[i] = 0x5a;
    set_flash(bytes);
  }
};

// FS3 sg changes DEV_INFO (here only bits 1 -> 0: programmed in place) and the ITOC entry
// that seals it (needs an erase). Without a scratch area the ITOC cannot be rewritten safely:
// the whole sg must be refused before DEV_INFO is touched, or the device boots in recovery.
TEST_F(CheckThenWrite, RefusedSgOnFs3LeavesFlashAndBootIntact) {
  create_sample("connectx4", "old");
  fill_scratch();
  expect_refused({"sg", "0x0002c90300a00000", "0x0002c9a00000"}, 6);
  const auto boot = power_on_boot();
  EXPECT_FALSE(boot.value("recovery", true)) << boot.dump();
}

TEST_F(CheckThenWrite, TwoSectorWbEndingInTheScratchAreaIsRefusedWhole) {
  create_sample("connectx4", "old");
  const std::uint64_t size = flash_size();
  // The first sector could be journaled; the second is the scratch area's copy sector.
  const std::string data = write("two-sectors.bin", random_bytes(0x2000, 7));
  expect_refused({"wb", data, hex(size - 0x3000)}, 6);
}

TEST_F(CheckThenWrite, ScratchAreaIsRefusedForDirectWritesAndLaterJournaledWritesWork) {
  create_sample("connectx4", "old");
  const std::uint64_t size = flash_size();
  expect_refused({"ww", hex(size - 0x1000), "0x12345678"}, 6);  // journal sector, bits only clear
  expect_refused({"ww", hex(size - 0x2000), "0x12345678"}, 6);  // copy sector
  expect_refused({"wwne", hex(size - 0x1000), "0x12345678"}, 6);
  // A write that needs an erase (0 -> 1 bits) is journaled, so the scratch area is still usable.
  const std::string spare = hex(size - 0x100000);
  ASSERT_EQ(flint({"-d", dev(), "ww", spare, "0x00000000"}).exit_code, 0);
  const auto ww = flint({"-d", dev(), "--json", "ww", spare, "0xa5a5a5a5"});
  ASSERT_EQ(ww.exit_code, 0) << ww.out << ww.err;
  EXPECT_EQ(parse_json(ww)["sectors_journaled"], 1);
  EXPECT_EQ(flint({"-d", dev(), "rw", spare}).out, "0xa5a5a5a5\n");
}

TEST_F(CheckThenWrite, WwneThatNeedsAnEraseChangesNothing) {
  create_sample("connectx4", "old");
  const std::string spare = hex(flash_size() - 0x100000);
  ASSERT_EQ(flint({"-d", dev(), "ww", spare, "0x0f0f0f0f"}).exit_code, 0);
  expect_refused({"wwne", spare, "0x00ff00ff"}, 3);  // 0 -> 1 bits: NOR programming would AND
  EXPECT_EQ(flint({"-d", dev(), "rw", spare}).out, "0x0f0f0f0f\n");
}

TEST_F(CheckThenWrite, EraseThatLeavesNoBootableCopyAsksFirst) {
  create_sample("connectx4", "old");
  expect_refused({"erase", "0x0"}, 7);          // no terminal: the answer is no
  expect_refused({"--no", "erase", "0x0"}, 7);  // --no
  expect_refused({"ww", "0x0", "0x00000000"}, 7);
  expect_refused({"wwne", "0x0", "0x00000000"}, 7);
  // A sector outside the copy is not asked about.
  ASSERT_EQ(flint({"-d", dev(), "erase", hex(flash_size() - 0x100000)}).exit_code, 0);
  const auto yes = flint({"-d", dev(), "-y", "erase", "0x0"});
  EXPECT_EQ(yes.exit_code, 0) << yes.err;
  EXPECT_TRUE(power_on_boot().value("recovery", false));
}

TEST_F(CheckThenWrite, FailsafeCopyLeftMeansNoQuestion) {
  // FS2 after an upgrade: the old copy was invalidated, erasing it does not matter; erasing
  // the booted copy does.
  create_sample("connectx3", "old");
  ASSERT_EQ(flint({"-d", dev(), "-i", sample("connectx3", "new"), "burn", "-y"}).exit_code, 0);
  const auto boot = power_on_boot();
  const std::string booted = boot.value("booted_copy", "");
  ASSERT_NE(booted, "0x0") << boot.dump();
  EXPECT_EQ(flint({"-d", dev(), "erase", "0x0"}).exit_code, 0);
  expect_refused({"erase", booted}, 7);
}

}  // namespace
}  // namespace openflint::test
