// The FS1 burner's current-copy choice (fwops/Fs1FlashLayout booted()) and the boot ROM's rule
// (image/BootCopy find_boot_copy, also used by the simulator and by flint q/v) must name the same
// copy — or both none — on any flash: two burned copies, then random damage to the invariant
// sector, the pointer sectors and the images.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fwops/FailsafeBurner.h"
#include "fwops/Fs1FlashLayout.h"
#include "image/BootCopy.h"
#include "image/Fs1Writer.h"
#include "sim/SimDevice.h"

namespace openflint {
namespace {

std::vector<std::uint8_t> fs1_image(std::uint16_t minor, std::size_t code_bytes) {
  Fs1ImageSpec spec;
  spec.fw_version = {1, minor, 7};
  spec.psid = "MT_0200000001";
  spec.supported_hw_ids = {25204};
  spec.device_id = 25204;
  spec.base_guid = 0x0002c90200abc000ull;
  std::mt19937 rng(minor);
  std::vector<std::uint8_t> code(code_bytes);
  for (auto& byte : code) byte = static_cast<std::uint8_t>(rng());
  spec.sections.push_back({gph::kDdr, code, 0});
  auto image = write_fs1_image(spec);
  EXPECT_TRUE(image.has_value()) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

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
