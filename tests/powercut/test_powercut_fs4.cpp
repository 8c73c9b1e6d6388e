// Power-cut sweeps of the FS4 families (issue 38 item 4), one table of models: the gateway path
// (our failsafe burner drives the flash) with the build's samples <model>-old.bin -> -new.bin at
// >= 200 cut points, and the firmware path (the simulated firmware's component update, MCC/MCDA,
// driven by our burner) at >= 100 cut points over an MCC image of the model. After every cut the
// device powers up and must boot the old or the new copy with the board's own identity.
// A new FS4 model is one line in kFs4Models (its samples and simulator come from the other work).
// Measured (December 2026, 2 cores shared under a load of ~18; CPU time, then wall): ConnectX-5
// gateway 1368 ops per burn, 213 cuts, 8.6 s (45 s); Spectrum-2 gateway 11934 ops (a 3 MB sample),
// 215 cuts, 31 s (342 s); firmware path 797 ops, 114 cuts, both models 6.5 s (23 s).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include "devices/DeviceCatalog.h"
#include "fwops/burn/FirmwareBurn.h"
#include "image/FirmwareImage.h"
#include "image/Fs4Writer.h"
#include "image/SectionType.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/PowerCutHarness.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

// The FS4 models swept: a simulator model with build/firmware-samples/<model>-old.bin and -new.bin.
// Add a line for each new FS4 model (connectx6dx, bluefield2, quantum, spectrum3, ...).
// One model per family and flash gateway: ConnectX-5 (gen5), ConnectX-6 Dx (gen5, 4-byte
// addresses, as ConnectX-6/6 Lx and BlueField-2), ConnectX-7 and BlueField-3 (gen6), Spectrum-2
// (gen5 4-byte, as Spectrum-3 and Quantum), Quantum-2 and Spectrum-4 (gen6).
constexpr const char* kFs4Models[] = {
    "connectx5", "connectx6dx", "connectx7", "bluefield3",  // adapters
    "spectrum2", "quantum2",    "spectrum4",                // switches
};

constexpr int kGatewayCutPoints = 200;
constexpr int kGatewayTailPoints = 16;  // every one of the last ops: the new magic, the boot address, the old magic
constexpr int kGatewayReburnEvery = 10;
constexpr std::uint64_t kFirmwareCutPoints = 100;
constexpr std::uint64_t kFirmwareTailPoints = 16;
constexpr std::size_t kFirmwareCodeBytes = 64 * 1024;  // MCC image code: enough flash ops for the sweep
constexpr std::uint64_t kBoardGuid = 0x0002c90300f40000ull;  // the MCC board's own identity
constexpr std::uint64_t kBoardMac = 0x0002c9f40000ull;

template <typename F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class Fs4PowerCut : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    model_ = GetParam();
    auto info = find_device_by_sim_model(model_);
    ASSERT_TRUE(info) << model_ << ": " << info.error().message();
    info_ = *info;
    ASSERT_EQ(info_->image_format, ImageFormat::Fs4) << model_ << " is not an FS4 family";
  }

  std::string model_;
  const DeviceInfo* info_ = nullptr;
};

TEST_P(Fs4PowerCut, GatewayPathSamplesOldToNew) {
  const auto old_path = sample_image(model_ + "-old"), new_path = sample_image(model_ + "-new");
  ASSERT_TRUE(std::filesystem::exists(old_path)) << old_path;
  ASSERT_TRUE(std::filesystem::exists(new_path)) << new_path;
  const auto a = read_file(old_path), b = read_file(new_path);
  PowerCutOutcome r;
  const double s = timed([&] { r = run_power_cuts(model_, a, b, kGatewayCutPoints, kGatewayReburnEvery, {}, {}, kGatewayTailPoints); });
  std::printf("[powercut] FS4 %s gateway path (samples %s -> %s): %llu flash ops in an unfaulted burn, %d cut points: "
              "booted A %d, booted B %d, recovery %d; identity lost %d; re-burn failures %d; %.1f s\n",
              model_.c_str(), old_path.filename().c_str(), new_path.filename().c_str(),
              static_cast<unsigned long long>(r.total_ops), r.cut_points, r.booted_a, r.booted_b, r.recovery,
              r.identity_lost, r.reburn_failures, s);
  for (const auto& f : r.failures) ADD_FAILURE() << model_ << ": " << f;
  EXPECT_GE(r.cut_points, kGatewayCutPoints);
  EXPECT_EQ(r.recovery, 0);
  EXPECT_EQ(r.identity_lost, 0);  // whichever copy boots, the board keeps its device data
  EXPECT_EQ(r.reburn_failures, 0);
  EXPECT_GT(r.booted_a, 0);
  EXPECT_GT(r.booted_b, 0);
}

// An FS4 image of the model whose firmware takes updates through MCC (IMAGE_INFO mcc_en), with
// the board's identity in its device data; `minor` tells old from new.
std::vector<std::uint8_t> mcc_fs4(const DeviceInfo& info, std::uint64_t flash_size, std::uint16_t minor) {
  Fs4ImageSpec s;
  s.fw_version = {30, minor, 1000};
  s.release_date = ReleaseDate{2026, 12, 7};
  s.psid = "MT_0000000444";
  s.description = "openflint FS4 firmware-path power-cut image";
  s.pci_device_id = info.pci_device_id;
  s.supported_hw_ids = {info.hw_id};
  s.component_update = true;
  s.base_guid = kBoardGuid;
  s.base_mac = kBoardMac;
  s.flash_size = flash_size;
  s.sections.push_back({section_type::kMainCode, random_bytes(kFirmwareCodeBytes, minor)});
  auto image = write_fs4_image(s);
  EXPECT_TRUE(image) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

struct FirmwareRun {
  bool completed = false;
  std::uint64_t ops = 0;
  sim::BootState boot;
};

TEST_P(Fs4PowerCut, FirmwarePathMccImage) {
  if (!info_->firmware_flash.component_update) GTEST_SKIP() << model_ << ": the catalog gives the family no component update";
  std::uint64_t flash_size = 0;
  {
    auto probe = sim::SimDevice::create(model_);
    ASSERT_TRUE(probe) << probe.error().message();
    flash_size = (*probe)->flash().contents().size();
  }
  const auto old_image = mcc_fs4(*info_, flash_size, 10), new_image = mcc_fs4(*info_, flash_size, 20);
  ASSERT_FALSE(old_image.empty());
  ASSERT_FALSE(new_image.empty());
  // One board, its flash restored to the old image before each burn (a fresh 16-32 MiB simulator
  // per cut costs more than the burn).
  const auto dev = device_running(model_, old_image);
  ASSERT_TRUE(dev);
  const auto c = dev->flash().contents();
  const std::vector<std::uint8_t> with_old(c.begin(), c.end());
  const auto run = [&](std::uint64_t cut_after) {
    FirmwareRun out;
    dev->set_faults({});
    dev->power_cycle();
    if (!dev->flash().set_contents(with_old)) return out;
    dev->power_cycle();
    sim::SimFaults f;
    f.power_cut_after_ops = cut_after;
    dev->set_faults(f);
    sim::SimRegisterPort port(*dev);
    const auto before = dev->counters().flash;
    out.completed = burn_through_firmware(port, *dev, dev->info(), new_image, BurnOptions{}).has_value();
    const auto after = dev->counters().flash;
    out.ops = after.erases + after.programs - before.erases - before.programs;
    dev->set_faults({});
    dev->power_cycle();
    out.boot = dev->boot_state();
    return out;
  };
  FirmwareRun clean;
  const double clean_s = timed([&] { clean = run(0); });
  ASSERT_TRUE(clean.completed) << model_ << ": the unfaulted burn through the firmware failed";
  ASSERT_TRUE(clean.boot.running && clean.boot.running->fw_version);
  ASSERT_EQ(clean.boot.running->fw_version->minor, 20u) << "the unfaulted burn did not boot the new image";
  ASSERT_GE(clean.ops, kFirmwareCutPoints) << "fewer flash ops than the sweep needs cut points";

  std::set<std::uint64_t> cuts;
  for (std::uint64_t i = 0; i < kFirmwareCutPoints; ++i) cuts.insert(1 + i * (clean.ops - 1) / (kFirmwareCutPoints - 1));
  for (std::uint64_t j = 0; j < kFirmwareTailPoints && j < clean.ops; ++j) cuts.insert(clean.ops - j);
  int old_boots = 0, new_boots = 0;
  const double s = timed([&] {
    for (const std::uint64_t cut : cuts) {
      const FirmwareRun r = run(cut);
      EXPECT_FALSE(r.completed && cut < clean.ops) << "the burn did not notice the power cut after op " << cut;
      ASSERT_FALSE(r.boot.recovery) << model_ << ": cut after " << cut << " of " << clean.ops << " flash ops: nothing boots";
      ASSERT_TRUE(r.boot.running && r.boot.running->fw_version) << "cut " << cut;
      const auto minor = r.boot.running->fw_version->minor;
      EXPECT_TRUE(minor == 10u || minor == 20u) << "cut " << cut << " boots " << r.boot.running->fw_version->to_string();
      (minor == 10u ? old_boots : new_boots)++;
      ASSERT_TRUE(r.boot.running->base_guid && r.boot.running->base_mac) << "cut " << cut;
      EXPECT_EQ(r.boot.running->base_guid->base, kBoardGuid) << "cut " << cut;
      EXPECT_EQ(r.boot.running->base_mac->base, kBoardMac) << "cut " << cut;
    }
  });
  std::printf("[powercut] FS4 %s firmware path (MCC image, %zu KiB code): %llu flash ops in an unfaulted burn (%.2f s), "
              "%zu cut points: booted old %d, booted new %d; %.1f s\n",
              model_.c_str(), kFirmwareCodeBytes / 1024, static_cast<unsigned long long>(clean.ops), clean_s, cuts.size(),
              old_boots, new_boots, s);
  EXPECT_GE(cuts.size(), kFirmwareCutPoints);
  EXPECT_GT(old_boots, 0);
  EXPECT_GT(new_boots, 0);
}

INSTANTIATE_TEST_SUITE_P(Models, Fs4PowerCut, ::testing::ValuesIn(kFs4Models),
                         [](const ::testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

}  // namespace
}  // namespace openflint::test
