// test_legacy_powercut: power cuts at >= 100 points of a failsafe FS1 burn (the fwburn samples,
// old -> new) on InfiniHost (AMD part), InfiniHost III Ex (Intel part) and InfiniScale III (I2C
// EEPROMs: a cut falls on a page write, which is left half written): the device always boots the
// old or the new firmware, never recovery, and keeps the board's GUIDs.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "tests/support/PowerCutHarness.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr int kCutPoints = 120;
constexpr int kReburnEvery = 6;
constexpr int kTailPoints = 24;  // every op of the end: the new copy's signature, then the other copy's

void sweep(const std::string& model) {
  const auto a = read_file(sample_image(model + "-old"));
  const auto b = read_file(sample_image(model + "-new"));
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  const auto t0 = std::chrono::steady_clock::now();
  const PowerCutOutcome r = run_power_cuts(model, a, b, kCutPoints, kReburnEvery, {}, {}, kTailPoints);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[powercut] FS1 %s (fwburn samples): %llu flash ops in an unfaulted burn, %d cut points: booted "
              "old %d, new %d, recovery %d; identity lost %d; re-burn failures %d; %.1f s\n",
              model.c_str(), static_cast<unsigned long long>(r.total_ops), r.cut_points, r.booted_a, r.booted_b,
              r.recovery, r.identity_lost, r.reburn_failures, s);
  for (const auto& f : r.failures) ADD_FAILURE() << model << ": " << f;
  EXPECT_GE(r.cut_points, kCutPoints);
  EXPECT_EQ(r.recovery, 0);       // never bricked
  EXPECT_EQ(r.identity_lost, 0);  // whichever copy boots carries the board's GUIDs and VSD
  EXPECT_EQ(r.reburn_failures, 0);
  EXPECT_GT(r.booted_a, 0);  // early cuts leave the old firmware ...
  EXPECT_GT(r.booted_b, 0);  // ... late ones the new
}

TEST(LegacyPowerCut, InfiniHostAmdFlash) { sweep("mt23108"); }

TEST(LegacyPowerCut, InfiniHostIIIExIntelFlash) { sweep("mt25208"); }

TEST(LegacyPowerCut, InfiniScaleIIIEeproms) { sweep("mt47396"); }

}  // namespace
}  // namespace openflint::test
