// Two burns of one simulated device at once: one waits for or fails on the flash lock (Busy),
// never both write; the flash ends holding a copy that verifies and boots.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "fwops/burn/FailsafeBurner.h"
#include "image/Fs2Writer.h"
#include "sim/BootRom.h"
#include "sim/SimDevice.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> image(std::uint16_t subminor) {
  Fs2ImageSpec spec;
  spec.fw_version = {2, 42, subminor};
  spec.psid = "MT_1090120019";
  std::mt19937 rng(subminor);
  std::vector<std::uint8_t> code(64 * 1024);
  for (auto& b : code) b = static_cast<std::uint8_t>(rng());
  spec.sections.push_back({gph::kDdr, code, 0});
  auto bytes = write_fs2_image(spec);
  EXPECT_TRUE(bytes.has_value());
  return bytes ? *bytes : std::vector<std::uint8_t>{};
}

TEST(ConcurrentBurn, SecondBurnWaitsOrFailsBusyAndFlashEndsValid) {
  auto created = sim::SimDevice::create("connectx3");
  ASSERT_TRUE(created.has_value()) << created.error().message();
  sim::SimDevice& dev = **created;
  const auto a = image(1000), b = image(2000);
  BurnOptions first;  // blank flash: the image's GUIDs
  first.identity.use_image_guids = true;
  ASSERT_TRUE(burn_image(dev, dev.info(), a, first).has_value());
  dev.reset();

  Result<BurnReport> r1 = make_error(ErrorCode::Internal, "not run");
  Result<BurnReport> r2 = make_error(ErrorCode::Internal, "not run");
  std::thread t1([&] { r1 = burn_image(dev, dev.info(), b, {}); });
  std::thread t2([&] { r2 = burn_image(dev, dev.info(), a, {}); });
  t1.join();
  t2.join();
  int ok = 0;
  for (const auto* r : {&r1, &r2}) {
    if (r->has_value()) {
      ++ok;
    } else {
      EXPECT_EQ(r->error().code(), ErrorCode::Busy) << r->error().message();
      EXPECT_NE(r->error().message().find("held by another agent"), std::string::npos) << r->error().message();
    }
  }
  EXPECT_GE(ok, 1);  // with the 5 s lock timeout the second usually waits and succeeds
  EXPECT_FALSE(dev.gateway().locked());
  const auto& boot = dev.reset();
  ASSERT_FALSE(boot.recovery);
  EXPECT_TRUE(sim::copy_is_bootable(ImageFormat::Fs2, dev.flash().contents(), boot.booted_address));
  ASSERT_TRUE(boot.running && boot.running->fw_version);
  const auto v = boot.running->fw_version->subminor;
  EXPECT_TRUE(v == 1000 || v == 2000);
}

}  // namespace
}  // namespace openflint::test
