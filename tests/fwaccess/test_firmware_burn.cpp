// openflint's burns of live simulated devices: through the running firmware (MFBA reads, MCC/MCDA), never the gateway.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include "flash/FirmwareFlashReader.h"
#include "fwops/burn/ComponentUpdater.h"
#include "fwops/Device.h"
#include "fwops/DeviceBurn.h"
#include "fwops/burn/FlashPath.h"
#include "fwops/DeviceFlash.h"
#include "fwops/burn/FirmwareBurn.h"
#include "mtcr/registers/MgirRegister.h"
#include "sim/ComponentRegisters.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/NarrowPort.h"
#include "tests/support/SyntheticImage.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> fs3(std::uint16_t minor, std::uint32_t hw_id = 0x209, std::string psid = "MT_0000000001") {
  return mcc_fs3(minor, hw_id, std::move(psid));
}

std::uint16_t running_minor(const sim::SimDevice& d) {
  const auto& r = d.boot_state().running;
  return r && r->fw_version ? r->fw_version->minor : 0;
}

TEST(FirmwareFlashReader, ReadsTheFlashInTheLargestBlocksThePortCarries) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  auto reader = FirmwareFlashReader::open(port);
  ASSERT_TRUE(reader) << reader.error().message();
  EXPECT_EQ(reader->size(), dev->flash().chip().size);
  EXPECT_EQ(reader->block_bytes(), 256u);  // 812-byte ICMD registers: MFBA's own limit
  std::vector<std::uint8_t> got(0x3000);
  const auto gateway_before = dev->counters().gateway_commands;
  ASSERT_TRUE(reader->read_into(0x10, got));  // unaligned start
  const auto flash = dev->flash().contents();
  EXPECT_TRUE(std::equal(got.begin(), got.end(), flash.begin() + 0x10));
  EXPECT_EQ(dev->counters().gateway_commands, gateway_before);

  NarrowPort smp(port, 44);  // in-band SMP: 44-byte registers -> 32-byte reads
  auto narrow = FirmwareFlashReader::open(smp);
  ASSERT_TRUE(narrow) << narrow.error().message();
  EXPECT_EQ(narrow->block_bytes(), 32u);
  std::vector<std::uint8_t> small(100);
  ASSERT_TRUE(narrow->read_into(0x1234, small));
  EXPECT_TRUE(std::equal(small.begin(), small.end(), flash.begin() + 0x1234));
  EXPECT_EQ(smp.accesses(), 1u + 4u);  // MFPA, then 0x1234..0x1298 in 32-byte aligned blocks
}

TEST(FirmwareBurn, ALiveDeviceTakesTheImageThroughItsFirmwareAndKeepsItsIdentity) {
  auto dev = live_connectx4();
  const auto before = dev->counters();
  const auto fw_before = dev->firmware_counters();
  sim::SimRegisterPort port(*dev);
  BurnOptions options;
  std::optional<BurnPreflight> asked;
  options.decide = [&](const BurnPreflight& p) -> Result<bool> {
    asked = p;
    return true;
  };
  auto report = burn_through_firmware(port, *dev, dev->info(), fs3(29), options);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_TRUE(report->through_firmware);
  ASSERT_TRUE(asked && asked->current && asked->current->fw_version);
  EXPECT_EQ(asked->current->fw_version->minor, 28u);  // the preflight read the flash through MFBA
  ASSERT_TRUE(asked->current->base_guid);
  EXPECT_EQ(asked->current->base_guid->base, kLiveBoardGuid);

  const auto after = dev->counters();
  const auto fw_after = dev->firmware_counters();
  EXPECT_EQ(after.gateway_commands, before.gateway_commands) << "the burn used the CR-space flash gateway";
  EXPECT_EQ(fw_after.gateway_conflicts, 0u);
  EXPECT_FALSE(dev->boot_state().firmware_hung);
  EXPECT_EQ(fw_after.component_activations, fw_before.component_activations + 1);
  EXPECT_GT(fw_after.component_writes, fw_before.component_writes);
  // Every erase and program of the burn was the firmware's.
  EXPECT_EQ(after.flash.erases - before.flash.erases, fw_after.flash_erases - fw_before.flash_erases);
  EXPECT_EQ(after.flash.programs - before.flash.programs, fw_after.flash_programs - fw_before.flash_programs);
  EXPECT_EQ(running_minor(*dev), 28u);  // until the reset

  dev->power_cycle();
  ASSERT_FALSE(dev->boot_state().recovery);
  EXPECT_EQ(running_minor(*dev), 29u);
  ASSERT_TRUE(dev->boot_state().running->base_guid);
  EXPECT_EQ(dev->boot_state().running->base_guid->base, kLiveBoardGuid);
  ASSERT_TRUE(dev->boot_state().running->base_mac);
  EXPECT_EQ(dev->boot_state().running->base_mac->base, kLiveBoardMac);
}

TEST(FirmwareBurn, RefusesWhatOnlyADirectWriteCanDoBeforeAnything) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  const auto fw_before = dev->firmware_counters();
  BurnOptions psid;
  psid.allow_psid_change = true;
  auto r = burn_through_firmware(port, *dev, dev->info(), fs3(29, 0x209, "MT_0000000099"), psid);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(r.error().message().find("--ocr"), std::string::npos) << r.error().message();

  BurnOptions uid;
  uid.identity.base_guid = 0x0002c90300bb6600ull;
  r = burn_through_firmware(port, *dev, dev->info(), fs3(29), uid);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::NotSupported) << r.error().message();

  BurnOptions nofs;
  nofs.failsafe = false;
  r = burn_through_firmware(port, *dev, dev->info(), fs3(29), nofs);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::NotSupported) << r.error().message();

  r = burn_through_firmware(port, *dev, dev->info(), fs3(29, 0x20b), BurnOptions{});  // a ConnectX-4 Lx image
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::Mismatch) << r.error().message();
  EXPECT_EQ(dev->firmware_counters().component_locks, fw_before.component_locks);
}

TEST(FirmwareBurn, DoesNotTakeTheHandleFromAnotherTool) {
  auto dev = live_connectx4();
  auto& up = dev->component_update();
  const std::uint32_t other = up.status().handle;
  ASSERT_EQ(up.control(*dev, sim::UpdateInstruction::LockUpdateHandle, other, 0, 0), sim::UpdateAnswer::Accepted);
  sim::SimRegisterPort port(*dev);
  ComponentUpdateTimeouts quick;
  quick.lock = std::chrono::milliseconds{50};
  auto r = burn_through_firmware(port, *dev, dev->info(), fs3(29), BurnOptions{}, quick);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::Busy) << r.error().message();
  EXPECT_EQ(up.status().state, sim::UpdateState::Locked);
  EXPECT_EQ(up.status().handle, other);  // still theirs
}

TEST(FirmwareBurn, AFirmwareErrorReleasesTheHandleAndLeavesTheOldCopyBooting) {
  auto dev = live_connectx4();
  sim::SimFaults f;
  f.flash_write_protected = true;  // the firmware's erase of the other slot fails
  dev->set_faults(f);
  sim::SimRegisterPort port(*dev);
  auto r = burn_through_firmware(port, *dev, dev->info(), fs3(29), BurnOptions{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::Io) << r.error().message();
  EXPECT_NE(r.error().message().find("0x10"), std::string::npos) << r.error().message();  // flash erase error
  EXPECT_EQ(dev->component_update().status().state, sim::UpdateState::Idle);  // cancelled and released
  dev->set_faults({});
  dev->power_cycle();
  EXPECT_EQ(running_minor(*dev), 28u);
  ASSERT_TRUE(burn_through_firmware(port, *dev, dev->info(), fs3(29), BurnOptions{}));  // the handle is free again
  dev->power_cycle();
  EXPECT_EQ(running_minor(*dev), 29u);
}

// flash_path's choice; nullopt when it refused (a failed expectation then prints nullopt).
std::optional<FlashPath> chosen(const Result<FlashPath>& path) {
  if (!path) return std::nullopt;
  return *path;
}

// burn_device chooses like the real tools: the firmware when it takes burns, the gateway with --ocr.
TEST(DeviceBurn, ChoosesTheFirmwareUnlessOverridden) {
  TempDir tmp;
  auto created = live_sim_connectx4(tmp.path() / "cx4");
  ASSERT_TRUE(created) << created.error().message();
  Device dev = std::move(*created);

  BurnOptions fw;
  EXPECT_EQ(chosen(flash_path(dev, fw.override_firmware)), FlashPath::Firmware);
  {  // ww, sg, ... drive the flash through the firmware; --ocr through the gateway
    auto raw = open_device_flash(dev);
    ASSERT_TRUE(raw) << raw.error().message();
    EXPECT_FALSE(raw->through_gateway());
    auto direct = open_device_flash(dev, /*override_firmware=*/true);
    ASSERT_TRUE(direct) << direct.error().message();
    EXPECT_TRUE(direct->through_gateway());
  }
  auto g0 = dev.simulator()->counters().gateway_commands;
  auto r = burn_device(dev, fs3(29), fw);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_TRUE(r->through_firmware);
  EXPECT_GT(r->register_accesses, 0u);
  EXPECT_EQ(dev.simulator()->counters().gateway_commands, g0);
  ASSERT_TRUE(dev.reset());

  BurnOptions ocr;
  ocr.override_firmware = true;
  EXPECT_EQ(chosen(flash_path(dev, ocr.override_firmware)), FlashPath::FlashGateway);
  g0 = dev.simulator()->counters().gateway_commands;
  r = burn_device(dev, fs3(30), ocr);
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_FALSE(r->through_firmware);
  EXPECT_GT(dev.simulator()->counters().gateway_commands, g0);
  // Writing the flash under a firmware that owns it hangs the firmware (mstflint's --ocr warning):
  // it answers no register until the next reset. The next burn cannot ask it whether it owns the
  // flash: it is refused (reset the device, or --ocr), never sent through the gateway again.
  EXPECT_GT(dev.simulator()->counters().firmware.gateway_conflicts, 0u);
  EXPECT_TRUE(dev.simulator()->boot_state().firmware_hung);
  auto port = dev.register_port();
  ASSERT_TRUE(port);
  AccessRegisterTlv mgir;
  mgir.register_id = MgirRegister::kId;
  mgir.data.assign(0xa0, 0);
  auto answer = (*port)->transact(mgir);
  ASSERT_FALSE(answer);
  EXPECT_EQ(answer.error().code(), ErrorCode::Timeout);
  auto refused = flash_path(dev);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::Timeout);
  EXPECT_NE(refused.error().message().find("reset"), std::string::npos) << refused.error().message();
  const auto conflicts = dev.simulator()->counters().firmware.gateway_conflicts;
  EXPECT_FALSE(burn_device(dev, fs3(31), BurnOptions{}));
  EXPECT_FALSE(open_device_flash(dev));
  EXPECT_EQ(dev.simulator()->counters().firmware.gateway_conflicts, conflicts);
  ASSERT_TRUE(dev.reset());
  EXPECT_FALSE(dev.simulator()->boot_state().firmware_hung);
  EXPECT_EQ(running_minor(*dev.simulator()), 30u);
}

TEST(DeviceBurn, AnImageWithoutMccRunningMeansTheGateway) {
  TempDir tmp;
  auto created = create_sim_device(tmp.path() / "cx4", "connectx4", "");
  ASSERT_TRUE(created) << created.error().message();
  Device dev = std::move(*created);
  SyntheticSpec s;
  s.hw_id = 0x209;
  auto plain = build_fs3(s).bytes;  // its firmware does not offer MCC
  std::vector<std::uint8_t> flash(dev.simulator()->flash().contents().size(), 0xff);
  std::copy(plain.begin(), plain.end(), flash.begin());
  ASSERT_TRUE(dev.simulator()->flash().set_contents(flash));
  dev.simulator()->power_cycle();
  EXPECT_EQ(chosen(flash_path(dev)), FlashPath::FlashGateway);
  auto raw = open_device_flash(dev);
  ASSERT_TRUE(raw) << raw.error().message();
  EXPECT_TRUE(raw->through_gateway());
}

// FS4 (Spectrum-2, real releases built with MCC): the firmware writes FS4's own magic pattern
// (not FS2/FS3's) into the new copy.
TEST(FirmwareBurn, AnFs4SwitchTakesTheImageThroughItsFirmware) {
  const auto old_path = sample_image("spectrum2-old"), new_path = sample_image("spectrum2-new");
  if (!std::filesystem::exists(old_path) || !std::filesystem::exists(new_path))
    GTEST_SKIP() << "the spectrum2 samples were not built (they are real images from ../shared/firmware/real)";
  auto dev = device_running("spectrum2", read_file(old_path));
  ASSERT_TRUE(dev->component_update_offered()) << "the real Spectrum-2 release is built with MCC";
  const auto gateway = dev->counters().gateway_commands;
  const auto was = running_minor(*dev);
  sim::SimRegisterPort port(*dev);
  auto r = burn_through_firmware(port, *dev, dev->info(), read_file(new_path), BurnOptions{});
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(dev->counters().gateway_commands, gateway);
  dev->power_cycle();
  ASSERT_FALSE(dev->boot_state().recovery);
  EXPECT_NE(running_minor(*dev), was);
  EXPECT_NE(dev->boot_state().booted_address, 0u);  // the other slot
}

// q and v of a device whose firmware takes burns read its flash through MFBA; --ocr through the gateway.
TEST(DeviceFlashReader, QueryAndVerifyOfALiveDeviceReadThroughTheFirmware) {
  TempDir tmp;
  auto created = live_sim_connectx4(tmp.path() / "cx4");
  ASSERT_TRUE(created) << created.error().message();
  Device dev = std::move(*created);
  const auto g0 = dev.simulator()->counters().gateway_commands;
  {
    auto reader = open_device_flash_reader(dev);
    ASSERT_TRUE(reader) << reader.error().message();
    EXPECT_NE(dynamic_cast<FirmwareFlashReader*>(reader->get()), nullptr);
    auto query = query_device_image(dev, **reader);
    ASSERT_TRUE(query) << query.error().message();
    ASSERT_TRUE(query->fw_version && query->base_guid);
    EXPECT_EQ(query->fw_version->minor, 28u);
    EXPECT_EQ(query->base_guid->base, kLiveBoardGuid);
    auto found = read_device_flash(dev, **reader);
    ASSERT_TRUE(found) << found.error().message();
    auto verified = verify_found_copy(*found);
    ASSERT_TRUE(verified) << verified.error().message();
    EXPECT_TRUE(found->image_found && verified->bootable());
  }
  EXPECT_EQ(dev.simulator()->counters().gateway_commands, g0);
  auto ocr = open_device_flash_reader(dev, /*override_firmware=*/true);
  ASSERT_TRUE(ocr) << ocr.error().message();
  EXPECT_NE(dynamic_cast<FlashDriver*>(ocr->get()), nullptr);
  EXPECT_GT(dev.simulator()->counters().gateway_commands, g0);
}

}  // namespace
}  // namespace openflint::test
