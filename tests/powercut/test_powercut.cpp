// Power-cut proof of the failsafe burn: for each format, cut the power at >= 200 points of an
// A -> B burn; the boot ROM must always find A or B, and burning B again must boot B.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "image/Fs1Writer.h"
#include "image/Fs2Writer.h"
#include "tests/support/PowerCutHarness.h"
#include "tests/powercut/RealImages.h"

namespace openflint::test {
namespace {

constexpr int kMinCutPoints = 200;
constexpr int kReburnEvery = 4;  // burning B again after every 4th cut keeps the label fast

void check(const char* format, const char* source, const PowerCutOutcome& r, double seconds) {
  std::printf("[powercut] %s (%s): %llu flash ops in an unfaulted burn, %d cut points: booted A %d, "
              "booted B %d, recovery %d; identity lost %d; re-burn failures %d; %.1f s\n",
              format, source, static_cast<unsigned long long>(r.total_ops), r.cut_points, r.booted_a,
              r.booted_b, r.recovery, r.identity_lost, r.reburn_failures, seconds);
  for (const auto& f : r.failures) ADD_FAILURE() << format << ": " << f;
  EXPECT_GE(r.cut_points, kMinCutPoints);
  EXPECT_EQ(r.recovery, 0);
  EXPECT_EQ(r.identity_lost, 0);  // whichever copy boots, the board keeps its GUIDs/MACs/VSD
  EXPECT_EQ(r.reburn_failures, 0);
  EXPECT_GT(r.booted_a, 0);  // the cuts span the burn: early ones leave A ...
  EXPECT_GT(r.booted_b, 0);  // ... late ones B
}

template <typename F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::uint8_t> fs2_image(std::uint16_t subminor, std::uint32_t seed) {
  Fs2ImageSpec spec;
  spec.fw_version = {2, 42, subminor};
  spec.psid = "MT_1090120019";
  spec.base_guid = 0x0002c90300001000ull;
  spec.base_mac = 0x0002c9001000ull;
  const std::vector<std::uint8_t> code = random_bytes(96 * 1024, seed);
  spec.sections.push_back({gph::kDdr, code, 0});
  spec.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(4096, static_cast<std::uint8_t>(seed)), 0});
  auto image = write_fs2_image(spec);
  EXPECT_TRUE(image.has_value()) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

void real_pair_test(const char* format, const char* model, const char* archive_a, const char* archive_b,
                    const BurnOptions& burn_b = {}) {
  TempDir dir;
  std::string why;
  const auto pair = extract_pair(dir, archive_a, archive_b, why);
  if (!pair) GTEST_SKIP() << format << " power-cut test needs real images: " << why;
  PowerCutOutcome r;
  const double s = timed([&] { r = run_power_cuts(model, pair->a, pair->b, kMinCutPoints, kReburnEvery, burn_b); });
  const std::string source = std::string(burn_b.identity.base_guid ? "given identity, " : "") + "real images " + archive_a + " -> " + archive_b + ", PSID " + pair->psid;
  check(format, source.c_str(), r, s);
}

TEST(PowerCut, Fs2ConnectX3WriterImages) {
  const auto a = fs2_image(1000, 1), b = fs2_image(2000, 2);
  PowerCutOutcome r;
  const double s = timed([&] { r = run_power_cuts("connectx3", a, b, kMinCutPoints, kReburnEvery); });
  check("FS2", "images from Fs2Writer", r, s);
}

TEST(PowerCut, Fs3SpectrumRealImages) {
  real_pair_test("FS3", "spectrum", "fw-SPC-rel-13_2000_1658-EVB.mfa", "fw-SPC-rel-13_2000_2162-EVB.mfa");
}

TEST(PowerCut, Fs4Spectrum2RealImages) {
  real_pair_test("FS4", "spectrum2", "fw-SPC2-rel-29_2000_1140-EVB.mfa", "fw-SPC2-rel-29_2000_2162-EVB.mfa");
}

// FS4 burn with --uid/--mac/--vsd: the copy, then DEV_INFO into its other slot and the old slot's
// signature cleared. A cut at any of the last 48 ops (all of the DEV_INFO step) and at 24 points
// spread over the burn leaves a board that boots A or B with its old identity or the given one —
// also the cut between the two signature writes, which leaves two signed slots (the first in DTOC
// order is the live one, image/TocWalk live_dev_info).
TEST(PowerCut, Fs4Spectrum2GivenIdentity) {
  TempDir dir;
  std::string why;
  const auto pair = extract_pair(dir, "fw-SPC2-rel-29_2000_1140-EVB.mfa", "fw-SPC2-rel-29_2000_2162-EVB.mfa", why);
  if (!pair) GTEST_SKIP() << "FS4 power-cut test needs real images: " << why;
  BurnOptions given;
  given.identity.base_guid = 0x0002c90300c0ff00ull;
  given.identity.base_mac = 0x0002c9c0ff00ull;
  given.identity.vsd = "power-cut given";
  PowerCutOutcome r;
  const double s = timed([&] { r = run_power_cuts("spectrum2", pair->a, pair->b, 24, 8, given); });
  std::printf("[powercut] FS4 given identity: %llu ops, %d cut points: booted A %d, B %d, recovery %d; identity "
              "neither old nor given %d; re-burn failures %d; %.1f s\n",
              static_cast<unsigned long long>(r.total_ops), r.cut_points, r.booted_a, r.booted_b, r.recovery,
              r.identity_lost, r.reburn_failures, s);
  for (const auto& f : r.failures) ADD_FAILURE() << f;
  EXPECT_GE(r.cut_points, 60);
  EXPECT_EQ(r.recovery, 0);
  EXPECT_EQ(r.identity_lost, 0);
  EXPECT_EQ(r.reburn_failures, 0);
  EXPECT_GE(r.booted_b, 3);  // the last cuts: B boots, with the old or the given identity
}

// Two FS1 releases of one board; the newer one carries more code (its copies are larger, so
// the burner must write the secondary copy first).
std::vector<std::uint8_t> fs1_image(std::uint16_t minor, std::size_t code_bytes, std::uint32_t seed) {
  Fs1ImageSpec spec;
  spec.fw_version = {1, minor, 0};
  spec.psid = "MT_0200000001";
  spec.vsd = "openflint powercut";
  spec.supported_hw_ids = {25204};
  spec.device_id = 25204;
  spec.base_guid = 0x0002c90200abc000ull;
  const std::vector<std::uint8_t> code = random_bytes(code_bytes, seed);
  spec.sections.push_back({gph::kDdr, code, 0});
  spec.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(2048, static_cast<std::uint8_t>(seed)), 0});
  auto image = write_fs1_image(spec);
  EXPECT_TRUE(image.has_value()) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

TEST(PowerCut, Fs1Mt25204WriterImages) {
  const auto a = fs1_image(2, 40 * 1024, 1), b = fs1_image(3, 100 * 1024, 2);  // copies: 1 vs 2 sectors
  PowerCutOutcome r;
  const double s = timed([&] { r = run_power_cuts("mt25204", a, b, kMinCutPoints, kReburnEvery); });
  check("FS1", "images from Fs1Writer, B larger than A", r, s);
}

}  // namespace
}  // namespace openflint::test
