// test_legacy_burn: the failsafe FS1 burn library on the parallel parts — the FS1 sector must
// cover the part's erase block, larger images move the copies, every copy boots with the board's GUIDs.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "fwops/burn/FailsafeBurner.h"
#include "image/FirmwareImage.h"
#include "image/Fs1Writer.h"
#include "sim/BootRom.h"
#include "sim/SimDevice.h"

namespace openflint {
namespace {

std::vector<std::uint8_t> image(std::uint16_t minor, std::size_t code_bytes, unsigned log2_sector) {
  Fs1ImageSpec spec;
  spec.fw_version = {4, minor, 1};
  spec.psid = "MT_0270000001";
  spec.device_id = 25208;
  spec.supported_hw_ids = {25208};
  spec.base_guid = 0x0002c90200b01000ull + minor;
  spec.log2_sector_size = log2_sector;
  std::mt19937 rng(minor);
  std::vector<std::uint8_t> code(code_bytes);
  for (auto& b : code) b = static_cast<std::uint8_t>(rng());
  spec.sections.push_back({gph::kDdr, code, 0});
  auto written = write_fs1_image(spec);
  EXPECT_TRUE(written.has_value()) << written.error().message();
  return written ? *written : std::vector<std::uint8_t>{};
}

std::unique_ptr<sim::SimDevice> make() {
  auto dev = sim::SimDevice::create("mt25208");
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

TEST(LegacyBurn, FailsafeRefusesAnFs1SectorSmallerThanTheEraseBlock) {
  auto dev = make();  // 28F320J3: 128 KiB blocks
  BurnOptions o;
  o.identity.use_image_guids = true;
  auto r = burn_image(*dev, dev->info(), image(1, 20000, 16), o);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(r.error().message().find("erase unit"), std::string::npos) << r.error().message();
  EXPECT_EQ(dev->counters().flash.erases + dev->counters().flash.programs, 0u);
  ASSERT_TRUE(burn_image(*dev, dev->info(), image(1, 20000, 17), o).has_value());
  EXPECT_TRUE(sim::copy_is_bootable(ImageFormat::Fs1, dev->flash().contents(), 0));
}

TEST(LegacyBurn, GrowingAndShrinkingImagesBootWithTheBoardGuids) {
  auto dev = make();
  BurnOptions first;
  first.identity.base_guid = 0x0002c90300abcd00ull;
  ASSERT_TRUE(burn_image(*dev, dev->info(), image(1, 20000, 17), first).has_value());
  for (const auto& [minor, size] : {std::pair{2, 300000}, std::pair{3, 40000}}) {  // 1 -> 3 -> 1 sectors per copy
    auto r = burn_image(*dev, dev->info(), image(static_cast<std::uint16_t>(minor), size, 17), BurnOptions{});
    ASSERT_TRUE(r.has_value()) << r.error().message();
    const auto& boot = dev->reset();
    ASSERT_FALSE(boot.recovery);
    ASSERT_TRUE(boot.running && boot.running->fw_version && boot.running->base_guid);
    EXPECT_EQ(boot.running->fw_version->to_string(), "4." + std::to_string(minor) + ".0001");
    EXPECT_EQ(boot.running->base_guid->base, 0x0002c90300abcd00ull);
  }
}

}  // namespace
}  // namespace openflint
