// test_switchx_powercut: power cuts at >= 100 points of a failsafe FS2 burn on SwitchX (the
// fwburn samples, old -> new): the device always boots the old or the new firmware, never
// recovery, keeps the board's identity, and a re-burn after the cut completes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "tests/support/PowerCutHarness.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr int kCutPoints = 110;
constexpr int kReburnEvery = 1;  // every cut point is followed by a clean re-burn
constexpr int kTailPoints = 16;  // every op of the end: the new copy's magic, then the old one's invalidation

TEST(SwitchXPowerCut, FailsafeFs2BurnSurvivesEveryCut) {
  const auto a = read_file(sample_image("switchx-old"));
  const auto b = read_file(sample_image("switchx-new"));
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  const auto t0 = std::chrono::steady_clock::now();
  const PowerCutOutcome r = run_power_cuts("switchx", a, b, kCutPoints, kReburnEvery, {}, {}, kTailPoints);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[powercut] FS2 switchx (fwburn samples): %llu flash ops in an unfaulted burn, %d cut points: booted "
              "old %d, new %d, recovery %d; identity lost %d; re-burn failures %d; %.1f s\n",
              static_cast<unsigned long long>(r.total_ops), r.cut_points, r.booted_a, r.booted_b, r.recovery,
              r.identity_lost, r.reburn_failures, s);
  for (const auto& f : r.failures) ADD_FAILURE() << f;
  EXPECT_GE(r.cut_points, 100);
  EXPECT_EQ(r.recovery, 0);       // never bricked
  EXPECT_EQ(r.identity_lost, 0);  // whichever copy boots carries the board's GUIDs, MACs and VSD
  EXPECT_EQ(r.reburn_failures, 0);
  EXPECT_GT(r.booted_a, 0);  // early cuts leave the old firmware ...
  EXPECT_GT(r.booted_b, 0);  // ... late ones the new
}

}  // namespace
}  // namespace openflint::test
