// FS1 failsafe burn on a simulated MT25204: invariant-sector refusal, copy order, repair, a
// bootable copy after every single flash operation of a burn, and one boot rule for burner and ROM.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "fwops/burn/FailsafeBurner.h"
#include "fwops/burn/Fs1FlashLayout.h"
#include "image/BootCopy.h"
#include "image/Fs1Writer.h"
#include "image/FirmwareImage.h"
#include "sim/BootRom.h"
#include "sim/SimDevice.h"

namespace openflint {
namespace {

using sim::SimDevice;

std::vector<std::uint8_t> fs1_image(std::uint16_t minor, std::size_t code_bytes, std::uint8_t invariant_fill = 0) {
  Fs1ImageSpec spec;
  spec.fw_version = {1, minor, 7};
  spec.psid = "MT_0200000001";
  spec.supported_hw_ids = {25204};
  spec.device_id = 25204;
  spec.base_guid = 0x0002c90200abc000ull;
  if (invariant_fill != 0) spec.invariant_code.assign(64, invariant_fill);
  std::mt19937 rng(minor);
  std::vector<std::uint8_t> code(code_bytes);
  for (auto& byte : code) byte = static_cast<std::uint8_t>(rng());
  spec.sections.push_back({gph::kDdr, code, 0});
  auto image = write_fs1_image(spec);
  EXPECT_TRUE(image.has_value()) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

std::unique_ptr<SimDevice> make() {
  auto dev = SimDevice::create("mt25204");
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

std::string running(SimDevice& dev) {
  const auto& boot = dev.reset();
  if (boot.recovery || !boot.running || !boot.running->fw_version) return "recovery";
  return boot.running->fw_version->to_string();
}

// The distinct stages a burn went through, in order.
struct StageLog {
  std::vector<std::string> stages;
  BurnOptions options() {
    BurnOptions o;
    o.progress = [this](const BurnProgress& p) {
      if (stages.empty() || stages.back() != p.stage) stages.emplace_back(p.stage);
    };
    return o;
  }
  [[nodiscard]] std::ptrdiff_t index_of(const std::string& stage) const {
    const auto it = std::find(stages.begin(), stages.end(), stage);
    return it == stages.end() ? -1 : it - stages.begin();
  }
};

// A first burn into blank flash takes the image's GUIDs/VSD (there is no board identity to keep).
BurnOptions image_ids() {
  BurnOptions o;
  o.identity.use_image_guids = true;
  return o;
}

void burn_ok(SimDevice& dev, Bytes image, const BurnOptions& options = image_ids()) {
  auto r = burn_image(dev, dev.info(), image, options);
  ASSERT_TRUE(r.has_value()) << r.error().message();
}

TEST(Fs1Burn, FirstBurnWritesEverythingAndBootsThePrimary) {
  auto dev = make();
  const auto a = fs1_image(2, 30000);
  burn_ok(*dev, a);
  EXPECT_EQ(running(*dev), "1.2.0007");
  EXPECT_EQ(dev->boot_state().booted_address, 3u * 0x10000);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), dev->flash().contents().begin()));
  EXPECT_EQ(dev->pci_device_id(), 25204);
}

TEST(Fs1Burn, RefusesAMismatchedInvariantSectorAndLeavesTheFlashAlone) {
  auto dev = make();
  burn_ok(*dev, fs1_image(2, 30000));
  const auto before = std::vector<std::uint8_t>(dev->flash().contents().begin(), dev->flash().contents().end());
  const auto ops_before = dev->counters().flash.erases + dev->counters().flash.programs;
  const auto other = fs1_image(3, 30000, 0x5a);  // a different invariant sector (boot code)
  auto r = burn_image(*dev, dev->info(), other, BurnOptions{});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Mismatch);
  EXPECT_NE(r.error().message().find("invariant sector"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("failsafe off"), std::string::npos) << r.error().message();
  EXPECT_EQ(dev->counters().flash.erases + dev->counters().flash.programs, ops_before);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), dev->flash().contents().begin()));
  EXPECT_EQ(running(*dev), "1.2.0007");
  // Failsafe off writes the whole image in place, invariant sector included.
  BurnOptions nofs;
  nofs.failsafe = false;
  burn_ok(*dev, other, nofs);
  EXPECT_EQ(running(*dev), "1.3.0007");
  EXPECT_TRUE(std::equal(other.begin(), other.end(), dev->flash().contents().begin()));
}

TEST(Fs1Burn, LargerImageGoesToTheSecondaryFirstSmallerToThePrimary) {
  auto dev = make();
  burn_ok(*dev, fs1_image(2, 30000));
  StageLog up;
  burn_ok(*dev, fs1_image(3, 100000), up.options());  // 1 -> 2 sectors per copy
  const auto sec = up.index_of("writing the new secondary image");
  const auto pri = up.index_of("writing the new primary image");
  ASSERT_GE(sec, 0);
  ASSERT_GE(pri, 0);
  EXPECT_LT(sec, pri);
  EXPECT_LT(up.index_of("invalidating the new secondary pointer sector"), sec);
  EXPECT_LT(sec, up.index_of("signing the new secondary pointer sector"));
  EXPECT_LT(up.index_of("signing the new secondary pointer sector"), up.index_of("invalidating the new primary pointer sector"));
  EXPECT_EQ(running(*dev), "1.3.0007");
  StageLog down;
  burn_ok(*dev, fs1_image(4, 30000), down.options());
  EXPECT_LT(down.index_of("writing the new primary image"), down.index_of("writing the new secondary image"));
  EXPECT_EQ(running(*dev), "1.4.0007");
  const auto& flash = dev->flash().contents();
  EXPECT_TRUE(sim::copy_is_bootable(ImageFormat::Fs1, flash, 0));
}

TEST(Fs1Burn, SameImageAgainWritesNothing) {
  auto dev = make();
  const auto a = fs1_image(2, 30000);
  burn_ok(*dev, a);
  auto r = burn_image(*dev, dev->info(), a, BurnOptions{});
  ASSERT_TRUE(r.has_value()) << r.error().message();
  EXPECT_EQ(r->sectors_erased, 0u);
  EXPECT_EQ(r->bytes_programmed, 0u);
}

TEST(Fs1Burn, RepairsABadSecondaryFromThePrimaryFirst) {
  auto dev = make();
  burn_ok(*dev, fs1_image(2, 30000));
  std::vector<std::uint8_t> flash(dev->flash().contents().begin(), dev->flash().contents().end());
  flash[4 * 0x10000 + 0x200] ^= 0x01;  // a bit flip inside the secondary image
  ASSERT_TRUE(dev->flash().set_contents(flash).has_value());
  StageLog log;
  burn_ok(*dev, fs1_image(3, 30000), log.options());  // same size: primary first needs a good secondary
  const auto repaired = log.index_of("signing the repaired secondary pointer sector");
  ASSERT_GE(repaired, 0);
  EXPECT_LT(repaired, log.index_of("invalidating the new primary pointer sector"));
  EXPECT_EQ(running(*dev), "1.3.0007");
}

// Forwards to a simulated device and, after every flash erase/program, asks the boot ROM
// whether the flash still holds a bootable FS1 copy.
class WatchedDevice final : public RegisterAccess {
 public:
  explicit WatchedDevice(SimDevice& dev) : dev_(&dev) {}
  Result<std::uint32_t> read32(std::uint32_t address) override { return dev_->read32(address); }
  Result<void> write32(std::uint32_t address, std::uint32_t value) override {
    auto r = dev_->write32(address, value);
    const auto c = dev_->counters().flash;
    if (c.erases + c.programs != ops_) {
      ops_ = c.erases + c.programs;
      ++checked_;
      if (!sim::copy_is_bootable(ImageFormat::Fs1, dev_->flash().contents(), 0)) unbootable_.push_back(checked_);
    }
    return r;
  }
  std::uint64_t checked_ = 0;
  std::vector<std::uint64_t> unbootable_;  // op numbers after which nothing could boot

 private:
  SimDevice* dev_;
  std::uint64_t ops_ = 0;
};

TEST(Fs1Burn, EveryFlashOperationLeavesABootableCopy) {
  auto dev = make();
  burn_ok(*dev, fs1_image(2, 30000));
  for (const std::size_t size : {100000u, 20000u}) {  // larger (secondary first), then smaller
    WatchedDevice watched(*dev);
    const auto image = fs1_image(static_cast<std::uint16_t>(size / 1000), size);
    auto r = burn_image(watched, dev->info(), image, BurnOptions{});
    ASSERT_TRUE(r.has_value()) << r.error().message();
    EXPECT_GT(watched.checked_, 1000u);
    EXPECT_TRUE(watched.unbootable_.empty()) << watched.unbootable_.size() << " unbootable states, first after op "
                                             << watched.unbootable_.front();
  }
}

// The burner's current-copy choice (fwops/burn/Fs1FlashLayout booted()) and the boot ROM's rule
// (image/BootCopy find_boot_copy, also used by the simulator and by flint q/v) must name the same
// copy, or both none, on any flash: two burned copies, then random damage to the invariant
// sector, the pointer sectors and the images.
// A flash holding image a in one copy and b in the other (sizes differ, so the copies differ).
std::vector<std::uint8_t> two_copy_flash() {
  auto dev = sim::SimDevice::create("mt25204");
  EXPECT_TRUE(dev.has_value());
  if (!dev) return {};
  BurnOptions first;
  first.identity.use_image_guids = true;
  for (const auto& image : {fs1_image(2, 30000), fs1_image(3, 41000)}) {
    auto r = burn_image(**dev, (*dev)->info(), image, first);
    EXPECT_TRUE(r.has_value()) << r.error().message();
  }
  const auto c = (*dev)->flash().contents();
  return {c.begin(), c.end()};
}

struct Choice {
  bool any = false;
  std::uint64_t image = 0;
};

Choice burner_choice(Bytes flash) {
  auto view = FlashView::of_bytes(flash);
  auto layout = read_fs1_layout(view);
  EXPECT_TRUE(layout.has_value());
  if (!layout || !*layout) return {};
  const Fs1CopyState* booted = (*layout)->booted();
  return booted ? Choice{true, booted->image.start} : Choice{};
}

Choice boot_rom_choice(Bytes flash) {
  auto copy = find_boot_copy(ImageFormat::Fs1, flash, std::nullopt);
  return copy ? Choice{true, copy->start} : Choice{};
}

TEST(Fs1BootRule, BurnerAndBootRomChooseTheSameCopyUnderRandomDamage) {
  const auto good = two_copy_flash();
  ASSERT_FALSE(good.empty());
  const Choice intact = boot_rom_choice(good);
  ASSERT_TRUE(intact.any);
  // Where damage matters: the invariant sector, both pointer sectors and both images.
  auto view = FlashView::of_bytes(good);
  auto layout = read_fs1_layout(view);
  ASSERT_TRUE(layout && *layout);
  const auto& l = **layout;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> regions = {{0, 0x800}};
  for (const auto& c : l.copies) {
    regions.emplace_back(c.ps_at, fs1::kPsSize);
    regions.emplace_back(c.image.start, c.image.length);
  }
  std::mt19937 rng(1234);
  int agreed = 0, none = 0, secondary = 0;
  for (int round = 0; round < 400; ++round) {
    auto flash = good;
    const int hits = 1 + static_cast<int>(rng() % 3);
    for (int h = 0; h < hits; ++h) {
      const auto& [at, len] = regions[rng() % regions.size()];
      flash[at + rng() % len] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    }
    const Choice a = burner_choice(flash), b = boot_rom_choice(flash);
    ASSERT_EQ(a.any, b.any) << "round " << round;
    if (a.any) {
      ASSERT_EQ(a.image, b.image) << "round " << round;
      if (a.image != intact.image) ++secondary;
    } else {
      ++none;
    }
    ++agreed;
  }
  // The damage must have exercised all three outcomes, or the agreement says little.
  EXPECT_EQ(agreed, 400);
  EXPECT_GT(none, 0);
  EXPECT_GT(secondary, 0);
  std::printf("fs1 boot rule: 400 damaged flashes agree; %d boot the other copy, %d none\n", secondary, none);
}

}  // namespace
}  // namespace openflint
