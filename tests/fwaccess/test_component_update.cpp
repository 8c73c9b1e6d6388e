// The simulated firmware's component update (MCAM, MCQS, MCQI, MCC, MCDA) driven as mstflint's FwCompsMgr drives it.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/inband/MadFormat.h"
#include "sim/CapabilityRegister.h"
#include "sim/ComponentRegisters.h"
#include "sim/FirmwareRegisters.h"
#include "sim/SimDevice.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/SyntheticImage.h"

namespace openflint::test {
namespace {

using sim::UpdateInstruction;
using sim::UpdateState;
constexpr std::uint8_t kOk = 0;
constexpr std::uint8_t kBadParam = AccessRegisterTlv::kStatusBadParameter;
constexpr std::uint8_t kBusy = AccessRegisterTlv::kStatusResourceNotAvailable;

std::vector<std::uint8_t> fs3(std::uint16_t minor, std::uint32_t hw_id = 0x209, std::string psid = "MT_0000000001",
                              bool mcc = true) {
  return mcc_fs3(minor, hw_id, std::move(psid), mcc);
}

struct Mcc {
  std::uint8_t status = 0;
  UpdateState state = UpdateState::Idle;
  std::uint32_t handle = 0;
  std::uint8_t error_code = 0;
};

class ComponentUpdateTest : public ::testing::Test {
 protected:
  void SetUp() override { dev_ = device_running("connectx4", fs3(28)); }

  AccessRegisterTlv access(std::uint16_t id, std::uint8_t method, std::vector<std::uint8_t> data) {
    AccessRegisterTlv r;
    r.register_id = id;
    r.method = method;
    r.data = std::move(data);
    auto a = sim::answer_register(*dev_, r);
    EXPECT_TRUE(a) << a.error().message();
    return r;
  }
  Mcc mcc(std::uint8_t method, UpdateInstruction instruction = {}, std::uint32_t handle = 0, std::uint32_t size = 0,
          std::uint16_t index = 0) {
    std::vector<std::uint8_t> d(0x20, 0);
    mad::put32(d.data(), 0x00, static_cast<std::uint32_t>(instruction));
    mad::put32(d.data(), 0x04, index);
    mad::put32(d.data(), 0x08, handle);
    mad::put32(d.data(), 0x10, size);
    const auto r = access(sim::kMccId, method, d);
    Mcc m;
    m.status = r.status;
    m.handle = mad::get32(r.data.data(), 0x08) & 0xffffff;
    const std::uint32_t w = mad::get32(r.data.data(), 0x0c);
    m.state = static_cast<UpdateState>(w & 0xf);
    m.error_code = static_cast<std::uint8_t>(w >> 8);
    return m;
  }
  Mcc query() { return mcc(AccessRegisterTlv::kMethodQuery); }
  Mcc instruct(UpdateInstruction i, std::uint32_t size = 0) { return mcc(AccessRegisterTlv::kMethodWrite, i, handle_, size); }
  // MCDA write as mstflint sends it: each dword of component bytes byte-reversed.
  std::uint8_t mcda(std::uint32_t offset, std::span<const std::uint8_t> bytes, std::uint32_t handle) {
    std::vector<std::uint8_t> d(0x10 + (bytes.size() + 3) / 4 * 4, 0);
    mad::put32(d.data(), 0x00, handle);
    mad::put32(d.data(), 0x04, offset);
    mad::put32(d.data(), 0x08, static_cast<std::uint32_t>(bytes.size()));
    for (std::size_t k = 0; k < bytes.size(); ++k) d[0x10 + (k & ~std::size_t{3}) + (3 - (k & 3))] = bytes[k];
    return access(sim::kMcdaId, AccessRegisterTlv::kMethodWrite, d).status;
  }
  void lock() {
    handle_ = query().handle;
    ASSERT_EQ(instruct(UpdateInstruction::LockUpdateHandle).status, kOk);
  }
  void download(const std::vector<std::uint8_t>& image) {
    for (std::size_t at = 0; at < image.size(); at += 128) {
      const auto n = std::min<std::size_t>(128, image.size() - at);
      ASSERT_EQ(mcda(static_cast<std::uint32_t>(at), std::span(image).subspan(at, n), handle_), kOk) << at;
    }
  }
  // Lock, announce, download and verify `image`; the verify's MCC answer.
  Mcc load(const std::vector<std::uint8_t>& image) {
    lock();
    const Mcc started = instruct(UpdateInstruction::UpdateComponent, static_cast<std::uint32_t>(image.size()));
    EXPECT_EQ(started.status, kOk);
    EXPECT_EQ(started.state, UpdateState::Download);
    download(image);
    return instruct(UpdateInstruction::VerifyComponent);
  }
  std::uint16_t running_minor() const {
    const auto& b = dev_->boot_state();
    return b.running && b.running->fw_version ? static_cast<std::uint16_t>(b.running->fw_version->minor) : 0;
  }

  std::unique_ptr<sim::SimDevice> dev_;
  std::uint32_t handle_ = 0;
};

TEST(FirmwareCapabilities, McamListsComponentRegistersWhereTheCatalogSaysSo) {
  for (const char* model : {"connectx4", "connectx5", "spectrum", "connectib", "connectx3"}) {
    auto dev = device_running(model, fs3(28, 0x209));
    AccessRegisterTlv r;
    r.register_id = sim::kMcamId;
    r.data.assign(0x48, 0);
    auto a = sim::answer_register(*dev, r);
    ASSERT_TRUE(a) << a.error().message();
    const bool offered = dev->info().firmware_flash.component_update;
    EXPECT_EQ(offered, std::string(model) != "connectib" && std::string(model) != "connectx3") << model;
    if (dev->boot_state().recovery || (!offered && dev->tracer() == nullptr)) {
      EXPECT_EQ(r.status, AccessRegisterTlv::kStatusRegisterNotSupported) << model;
      continue;
    }
    EXPECT_EQ(r.status, kOk) << model;
    if (!offered) {  // Connect-IB: MCAM answers for its tracer registers (docs/trace.md), without MCC
      EXPECT_EQ(r.data[0x08 + 3] & 0x1f, 0) << model;
      EXPECT_EQ(r.data[0x08 + 7] & 0x0f, 0x0f) << model;  // MTRC_CAP..MTRC_CTRL (0x40-0x43)
      continue;
    }
    EXPECT_EQ(r.data[0x08 + 3] & 0x1f, 0x1f) << model;  // MCQS..MQIS (0x60-0x64)
    EXPECT_EQ(r.data[0x08 + 11] & 0x01, 0x01) << model;  // MGIR (0x20)
  }
}

TEST(FirmwareCapabilities, FirmwareBuiltWithoutMccDoesNotOfferIt) {
  auto dev = device_running("connectx4", fs3(28, 0x209, "MT_0000000001", /*mcc=*/false));
  ASSERT_FALSE(dev->boot_state().recovery);
  EXPECT_FALSE(dev->component_update_offered());
  AccessRegisterTlv mcam;
  mcam.register_id = sim::kMcamId;
  mcam.data.assign(0x48, 0);
  ASSERT_TRUE(sim::answer_register(*dev, mcam));
  EXPECT_EQ(mcam.status, kOk) << "MCAM itself answers";
  EXPECT_EQ(mcam.data[0x08 + 3] & 0x1f, 0) << "no MCQS..MQIS";
  AccessRegisterTlv mcc;
  mcc.register_id = sim::kMccId;
  mcc.data.assign(0x20, 0);
  ASSERT_TRUE(sim::answer_register(*dev, mcc));
  EXPECT_EQ(mcc.status, AccessRegisterTlv::kStatusRegisterNotSupported);
}

TEST_F(ComponentUpdateTest, UpdateActivatesANewCopyThatBootsAfterReset) {
  const auto gateway_before = dev_->counters().gateway_commands;
  const auto image = fs3(29);
  const Mcc verified = load(image);
  EXPECT_EQ(verified.status, kOk);
  EXPECT_EQ(verified.state, UpdateState::Locked);
  EXPECT_EQ(verified.error_code, 0);
  const Mcc activated = instruct(UpdateInstruction::Activate);
  EXPECT_EQ(activated.status, kOk);
  EXPECT_EQ(activated.state, UpdateState::Locked);
  EXPECT_EQ(instruct(UpdateInstruction::ReleaseUpdateHandle).state, UpdateState::Idle);
  EXPECT_EQ(running_minor(), 28) << "the running firmware changes only at reset";
  ASSERT_TRUE(dev_->component_update().pending());
  dev_->reset();
  EXPECT_FALSE(dev_->boot_state().recovery);
  EXPECT_EQ(running_minor(), 29);
  EXPECT_EQ(dev_->boot_state().booted_address, dev_->flash().contents().size() / 2) << "the other slot";
  dev_->power_cycle();  // no boot-address register after power loss: the scan finds it too
  EXPECT_EQ(running_minor(), 29);
  const auto c = dev_->counters();
  EXPECT_EQ(c.firmware.component_locks, 1u);
  EXPECT_EQ(c.firmware.component_writes, (image.size() + 127) / 128);
  EXPECT_EQ(c.firmware.component_activations, 1u);
  EXPECT_EQ(c.gateway_commands, gateway_before) << "the firmware does not use the CR-space gateway";
  EXPECT_GT(c.flash.programs, 0u);
  EXPECT_EQ(c.firmware.flash_programs, c.flash.programs) << "every program was the firmware's";
}

TEST_F(ComponentUpdateTest, MaskedMagicAsMstflintSendsItIsRestored) {
  auto image = fs3(29);
  std::fill_n(image.begin(), 16, 0xff);  // FwExtract4MBImage(maskMagicPatternAndDevToc)
  ASSERT_EQ(load(image).error_code, 0);
  ASSERT_EQ(instruct(UpdateInstruction::Activate).status, kOk);
  dev_->reset();
  EXPECT_EQ(running_minor(), 29);
}

TEST_F(ComponentUpdateTest, ComponentAsMstflintSendsItAdoptsTheBoardsDeviceData) {
  SyntheticSpec spec;
  spec.hw_id = 0x209;
  spec.fw_major = 12;
  spec.fw_minor = 29;
  spec.fw_subminor = 1100;
  const auto built = build_fs3_mcc(spec);
  auto image = built.bytes;
  // FwExtract4MBImage: the magic and the device-data ITOC entries (4th to 7th: NV_DATA,
  // DEV_INFO, MFG_INFO, VPD_R0) masked to 0xFF, the image cut after its last ITOC section.
  std::fill_n(image.begin(), 16, 0xff);
  std::fill_n(image.begin() + static_cast<long>(built.itoc + 0x20 + 3 * 0x20), 4 * 0x20, 0xff);
  image.resize(0x6000);
  ASSERT_EQ(load(image).error_code, 0);
  ASSERT_EQ(instruct(UpdateInstruction::Activate).status, kOk);
  dev_->reset();
  EXPECT_EQ(running_minor(), 29);
}

TEST_F(ComponentUpdateTest, SecondUpdateGoesBackToTheFirstSlot) {
  ASSERT_EQ(load(fs3(29)).error_code, 0);
  ASSERT_EQ(instruct(UpdateInstruction::Activate).status, kOk);
  ASSERT_EQ(instruct(UpdateInstruction::ReleaseUpdateHandle).status, kOk);
  dev_->reset();
  ASSERT_EQ(load(fs3(30)).error_code, 0);
  ASSERT_EQ(instruct(UpdateInstruction::Activate).status, kOk);
  dev_->reset();
  EXPECT_EQ(running_minor(), 30);
  EXPECT_EQ(dev_->boot_state().booted_address, 0u);
}

TEST_F(ComponentUpdateTest, WrongHandleIsABadParameter) {
  handle_ = query().handle + 1;
  EXPECT_EQ(instruct(UpdateInstruction::LockUpdateHandle).status, kBadParam);
  lock();
  EXPECT_EQ(mcc(AccessRegisterTlv::kMethodWrite, UpdateInstruction::UpdateComponent, handle_ + 1, 0x40000).status,
            kBadParam);
  ASSERT_EQ(instruct(UpdateInstruction::UpdateComponent, 0x40000).status, kOk);
  const std::vector<std::uint8_t> chunk(128, 0);
  EXPECT_EQ(mcda(0, chunk, handle_ + 1), kBadParam);
  EXPECT_EQ(dev_->counters().firmware.component_writes, 0u);
}

TEST_F(ComponentUpdateTest, InstructionsOutOfOrderAreRefused) {
  handle_ = query().handle;
  EXPECT_EQ(instruct(UpdateInstruction::UpdateComponent, 0x40000).status, kBadParam) << "not locked";
  lock();
  EXPECT_EQ(mcc(AccessRegisterTlv::kMethodWrite, UpdateInstruction::LockUpdateHandle, query().handle).status, kBusy)
      << "the handle is taken";
  EXPECT_EQ(instruct(UpdateInstruction::VerifyComponent).status, kBadParam) << "nothing downloaded";
  EXPECT_EQ(instruct(UpdateInstruction::Activate).status, kBadParam) << "nothing verified";
  const std::vector<std::uint8_t> chunk(128, 0);
  EXPECT_EQ(mcda(0, chunk, handle_), kBadParam) << "not downloading";
  ASSERT_EQ(instruct(UpdateInstruction::UpdateComponent, 0x40000).status, kOk);
  EXPECT_EQ(mcda(128, chunk, handle_), kBadParam) << "out of order";
  EXPECT_EQ(instruct(UpdateInstruction::ReleaseUpdateHandle).status, kBadParam) << "release only when locked";
  EXPECT_EQ(instruct(UpdateInstruction::Cancel).state, UpdateState::Locked);
  EXPECT_EQ(instruct(UpdateInstruction::ReleaseUpdateHandle).state, UpdateState::Idle);
}

TEST_F(ComponentUpdateTest, BadSizesAreRefused) {
  lock();
  EXPECT_EQ(instruct(UpdateInstruction::UpdateComponent, 0).status, kBadParam);
  const auto half = static_cast<std::uint32_t>(dev_->flash().contents().size() / 2);
  EXPECT_EQ(instruct(UpdateInstruction::UpdateComponent, half + 4).status, kBadParam);
  EXPECT_EQ(mcc(AccessRegisterTlv::kMethodWrite, UpdateInstruction::UpdateComponent, handle_, 0x40000, 1).status,
            kBadParam)
      << "component index 1 does not exist";
  ASSERT_EQ(instruct(UpdateInstruction::UpdateComponent, 256).status, kOk);
  const std::vector<std::uint8_t> chunk(128, 0);
  EXPECT_EQ(mcda(0, chunk, handle_), kOk);
  EXPECT_EQ(mcda(128, std::vector<std::uint8_t>(132, 0), handle_), kBadParam) << "over 128 bytes";
  EXPECT_EQ(mcda(128, chunk, handle_), kOk);
  EXPECT_EQ(mcda(256, chunk, handle_), kBadParam) << "past the announced size";
}

TEST_F(ComponentUpdateTest, ImageOfAnotherBoardOrDeviceIsNotApplicable) {
  const Mcc other_psid = load(fs3(29, 0x209, "MT_0000000002"));
  EXPECT_EQ(other_psid.state, UpdateState::Locked);
  EXPECT_NE(other_psid.error_code, 0) << "refused: its IMAGE_INFO PSID is not the board's";
  EXPECT_EQ(instruct(UpdateInstruction::Activate).status, kBadParam) << "a rejected image is not activated";
  EXPECT_EQ(instruct(UpdateInstruction::ReleaseUpdateHandle).status, kOk);
  EXPECT_EQ(load(fs3(29, 0x20d)).error_code, sim::mcc_error::kNotApplicable) << "ConnectX-5 image";
  dev_->reset();
  EXPECT_EQ(running_minor(), 28);
  EXPECT_EQ(dev_->counters().firmware.component_activations, 0u);
}

TEST_F(ComponentUpdateTest, CorruptOrShortImageIsBadFormat) {
  auto image = fs3(29);
  image[0x5000 + 40] ^= 0xff;  // inside MAIN_CODE: its CRC fails
  EXPECT_EQ(load(image).error_code, sim::mcc_error::kBadFormat);
  EXPECT_EQ(instruct(UpdateInstruction::ReleaseUpdateHandle).status, kOk);
  lock();
  ASSERT_EQ(instruct(UpdateInstruction::UpdateComponent, 0x40000).status, kOk);
  EXPECT_EQ(instruct(UpdateInstruction::VerifyComponent).error_code, sim::mcc_error::kBadFormat) << "nothing sent";
  dev_->reset();
  EXPECT_EQ(running_minor(), 28);
}

TEST_F(ComponentUpdateTest, ForceReleaseAndResetDropTheHandle) {
  lock();
  ASSERT_EQ(instruct(UpdateInstruction::UpdateComponent, 0x40000).state, UpdateState::Download);
  EXPECT_EQ(mcc(AccessRegisterTlv::kMethodWrite, UpdateInstruction::ForceHandleRelease, 0).state, UpdateState::Idle);
  lock();
  dev_->reset();
  EXPECT_EQ(query().state, UpdateState::Idle);
  EXPECT_EQ(instruct(UpdateInstruction::UpdateComponent, 0x40000).status, kBadParam) << "the old handle is gone";
}

TEST_F(ComponentUpdateTest, VersionsOfRunningAndPendingCopies) {
  auto mcqi = [&](bool pending) {
    std::vector<std::uint8_t> d(0x18 + 20, 0);
    mad::put32(d.data(), 0x00, pending ? 1u << 31 : 0u);
    mad::put32(d.data(), 0x08, 1);  // versions
    mad::put32(d.data(), 0x14, 20);
    return access(sim::kMcqiId, AccessRegisterTlv::kMethodQuery, d);
  };
  const auto running = mcqi(false);
  ASSERT_EQ(running.status, kOk);
  EXPECT_EQ(mad::get32(running.data.data(), 0x18 + 4), 12u << 24 | 28u << 16 | 1100u);
  EXPECT_EQ(mcqi(true).status, kBadParam) << "nothing pending";
  ASSERT_EQ(load(fs3(29)).error_code, 0);
  ASSERT_EQ(instruct(UpdateInstruction::Activate).status, kOk);
  const auto pending = mcqi(true);
  ASSERT_EQ(pending.status, kOk);
  EXPECT_EQ(mad::get32(pending.data.data(), 0x18 + 4), 12u << 24 | 29u << 16 | 1100u);
}

// A power cut anywhere in the update (download, verify, activate) leaves a flash that boots the
// old or the new image, never recovery.
TEST(ComponentUpdatePowerCut, EveryCutLeavesABootableFlash) {
  const auto old_image = fs3(28);
  const auto new_image = fs3(29);
  std::uint64_t total_ops = 0;
  auto run = [&](std::uint64_t cut_after) {
    auto dev = device_running("connectx4", old_image);
    const auto before = dev->counters().flash;
    sim::SimFaults f;
    f.power_cut_after_ops = cut_after;
    dev->set_faults(f);
    auto& up = dev->component_update();
    const std::uint32_t handle = up.status().handle;
    (void)up.control(*dev, UpdateInstruction::LockUpdateHandle, handle, 0, 0);
    (void)up.control(*dev, UpdateInstruction::UpdateComponent, handle, 0, static_cast<std::uint32_t>(new_image.size()));
    for (std::size_t at = 0; at < new_image.size() && dev->powered(); at += 128)
      (void)up.download(*dev, handle, static_cast<std::uint32_t>(at), std::span(new_image).subspan(at, 128));
    if (dev->powered()) (void)up.control(*dev, UpdateInstruction::VerifyComponent, handle, 0, 0);
    if (dev->powered()) (void)up.control(*dev, UpdateInstruction::Activate, handle, 0, 0);
    const auto after = dev->counters().flash;
    dev->power_cycle();
    return std::pair{dev->boot_state(), after.erases + after.programs - before.erases - before.programs};
  };
  const auto [clean, ops] = run(0);
  ASSERT_FALSE(clean.recovery);
  ASSERT_TRUE(clean.running && clean.running->fw_version);
  EXPECT_EQ(clean.running->fw_version->minor, 29u);
  total_ops = ops;
  ASSERT_GT(total_ops, 10u);
  for (std::uint64_t cut : {std::uint64_t{1}, total_ops / 3, total_ops - 3, total_ops - 2, total_ops - 1, total_ops}) {
    const auto [boot, done] = run(cut);
    (void)done;
    ASSERT_FALSE(boot.recovery) << "cut after " << cut << " of " << total_ops << " flash ops";
    ASSERT_TRUE(boot.running && boot.running->fw_version);
    EXPECT_TRUE(boot.running->fw_version->minor == 28u || boot.running->fw_version->minor == 29u);
  }
}

}  // namespace
}  // namespace openflint::test
