// openflint's burn through the simulated firmware under power cuts at every flash operation.
#include <gtest/gtest.h>

#include <cstdio>
#include <tuple>

#include "fwops/burn/FirmwareBurn.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

// The component path under power cuts, driven by openflint's own burner: every erase and page
// program of the firmware is a cut point; after each cut the device powers up again (the
// firmware restarts) and must boot the old or the new copy with the board's GUIDs.
TEST(FirmwareBurnPowerCut, EveryCutLeavesABootableDeviceWithItsIdentity) {
  const auto new_image = mcc_fs3(29);
  const auto run = [&](std::uint64_t cut_after) {
    auto dev = live_connectx4();
    sim::SimFaults f;
    f.power_cut_after_ops = cut_after;
    dev->set_faults(f);
    sim::SimRegisterPort port(*dev);
    const auto before = dev->counters().flash;
    auto r = burn_through_firmware(port, *dev, dev->info(), new_image, BurnOptions{});
    const auto after = dev->counters().flash;
    const bool completed = r.has_value();
    dev->power_cycle();
    return std::tuple{completed, after.erases + after.programs - before.erases - before.programs, dev->boot_state()};
  };
  const auto [clean_ok, total_ops, clean] = run(0);
  ASSERT_TRUE(clean_ok);
  ASSERT_TRUE(clean.running && clean.running->fw_version);
  EXPECT_EQ(clean.running->fw_version->minor, 29u);
  ASSERT_GE(total_ops, 100u) << "fewer cut points than the sweep needs";
  std::uint64_t old_boots = 0, new_boots = 0;
  for (std::uint64_t cut = 1; cut <= total_ops; ++cut) {
    const auto [ok, ops, boot] = run(cut);
    EXPECT_FALSE(ok && cut < total_ops) << "the burn did not notice the power cut after op " << cut;
    ASSERT_FALSE(boot.recovery) << "cut after " << cut << " of " << total_ops << " flash ops: nothing boots";
    ASSERT_TRUE(boot.running && boot.running->fw_version && boot.running->base_guid);
    const auto minor = boot.running->fw_version->minor;
    EXPECT_TRUE(minor == 28u || minor == 29u) << "cut " << cut;
    (minor == 28u ? old_boots : new_boots)++;
    EXPECT_EQ(boot.running->base_guid->base, kLiveBoardGuid) << "cut " << cut;
  }
  EXPECT_GT(old_boots, 0u);
  EXPECT_GT(new_boots, 0u);
  std::printf("[ sweep ] %llu cut points: %llu boot the old copy, %llu the new\n",
              static_cast<unsigned long long>(total_ops), static_cast<unsigned long long>(old_boots),
              static_cast<unsigned long long>(new_boots));
}

}  // namespace
}  // namespace openflint::test
