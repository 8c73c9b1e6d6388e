// test_switchx_gateway: the SwitchX variant of the 4th-gen SPI gateway, in process: the lock in
// CMD bit 31 (kept in every command, a second user finds it held), the flash-enable bit, the
// chip-select support register, the cache-replacement guard and its override, the running FW
// version at 0x60040 (docs/legacy-devices.md, SwitchX).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "devices/SpiOpcode.h"
#include "flash/FlashDriver.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

using sim::SimDevice;

constexpr std::uint32_t kCmd = 0xf0400;
constexpr std::uint32_t kAddr = 0xf0404;
constexpr std::uint32_t kData = 0xf0410;
constexpr std::uint32_t kCsSupport = 0xf0420;
constexpr std::uint32_t kLock = 1u << 31;
constexpr std::uint32_t kBusy = 1u << 30;
constexpr std::uint32_t kFlashEnable = 1u << 13;

FlashTimeouts fast() {
  FlashTimeouts t;
  t.lock = std::chrono::milliseconds(30);
  t.write_in_progress = std::chrono::milliseconds(200);
  return t;
}

std::unique_ptr<SimDevice> make_switchx() {
  auto dev = SimDevice::create("switchx");
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

// Records every CMD word written, then passes the access on.
class CmdRecorder final : public RegisterAccess {
 public:
  explicit CmdRecorder(SimDevice& dev) : dev_(&dev) {}
  Result<std::uint32_t> read32(std::uint32_t a) override { return dev_->read32(a); }
  Result<void> write32(std::uint32_t a, std::uint32_t v) override {
    if (a == kCmd) cmds.push_back(v);
    return dev_->write32(a, v);
  }
  Result<void> read_block(std::uint32_t a, std::span<std::uint32_t> out) override { return dev_->read_block(a, out); }
  Result<void> write_block(std::uint32_t a, std::span<const std::uint32_t> values) override {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (a + 4 * i == kCmd) cmds.push_back(values[i]);
    return dev_->write_block(a, values);
  }
  std::vector<std::uint32_t> cmds;

 private:
  SimDevice* dev_;
};

std::uint32_t read_or(SimDevice& dev, std::uint32_t address, std::uint32_t fallback) {
  auto v = dev.read32(address);
  return v ? *v : fallback;
}

// RDID (0x9f) reading 4 bytes: cmd phase, data phase, read, log2 size 2.
std::uint32_t rdid_word(std::uint32_t extra) {
  return kBusy | extra | (std::uint32_t{spi::kReadJedecId} << 16) | (1u << 2) | (1u << 4) | (2u << 8) | 1u;
}

TEST(SwitchXGateway, CatalogRecordCarriesTheVariantAsData) {
  auto dev = make_switchx();
  const DeviceInfo& info = dev->info();
  EXPECT_EQ(info.hw_id, 0x245);
  EXPECT_EQ(info.pci_device_id, 0xc738);
  EXPECT_EQ(info.pci_recovery_id, 0x246);
  const FlashGatewayInfo& g = info.flash_gateway;
  EXPECT_EQ(g.generation, GatewayGeneration::ConnectX);
  EXPECT_EQ(g.lock, FlashLockKind::CmdBit31);
  EXPECT_TRUE(g.needs_flash_enable);
  EXPECT_EQ(g.chip_select_support_addr, kCsSupport);
  EXPECT_EQ(g.flash_banks, 2);
  EXPECT_TRUE(g.cache_guard.present());
  EXPECT_EQ(info.running_fw_version_addr, 0x60040u);
  EXPECT_EQ(info.fs2_config_area.sector_size(), 4096u);
}

TEST(SwitchXGateway, EveryCommandKeepsLockAndFlashEnableAndTheDriverRoundTrips) {
  auto dev = make_switchx();
  CmdRecorder rec(*dev);
  {
    auto driver = FlashDriver::open(rec, dev->info().flash_gateway, fast());
    ASSERT_TRUE(driver.has_value()) << driver.error().message();
    EXPECT_EQ(driver->chip().name, "N25Q128A");
    EXPECT_EQ(dev->peek32(kCsSupport), 0x3u);  // (1 << 2 flashes) - 1
    std::vector<std::uint8_t> data(4096);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7 + 3);
    ASSERT_TRUE(driver->write_sectors_that_differ(0x10000, data).has_value());
    auto back = driver->read(0x10000, data.size());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, data);
    EXPECT_TRUE(dev->gateway().locked());
  }
  ASSERT_GT(rec.cmds.size(), 10u);
  // Every command keeps bit 31 (else it would drop the lock) and bit 13; the last write is the release.
  for (std::size_t i = 0; i + 1 < rec.cmds.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rec.cmds[i] & (kLock | kFlashEnable), kLock | kFlashEnable);
    EXPECT_EQ((rec.cmds[i] >> 11) & 3u, 0u);  // chip select 0
  }
  EXPECT_EQ(rec.cmds.back(), 0u);
  EXPECT_FALSE(dev->gateway().locked());
}

TEST(SwitchXGateway, ASecondUserFindsBit31HeldUntilReleased) {
  auto dev = make_switchx();
  {
    auto first = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
    ASSERT_TRUE(first.has_value()) << first.error().message();
    EXPECT_NE(dev->peek32(kCmd) & kLock, 0u);
    auto second = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
    ASSERT_FALSE(second.has_value());
    EXPECT_EQ(second.error().code(), ErrorCode::Busy);
    EXPECT_NE(second.error().message().find("0xf0400"), std::string::npos) << second.error().message();
    EXPECT_NE(second.error().message().find("held by another agent"), std::string::npos);
    // The first user still works: the failed acquisition did not steal or drop the lock.
    EXPECT_TRUE(first->read(0, 16).has_value());
  }
  EXPECT_EQ(dev->peek32(kCmd) & kLock, 0u);
  EXPECT_TRUE(FlashDriver::open(*dev, dev->info().flash_gateway, fast()).has_value());
}

TEST(SwitchXGateway, FlashEnableAndChipSelectSupportAreRequired) {
  auto dev = make_switchx();
  ASSERT_TRUE(dev->read32(kCmd).has_value());  // read-to-lock: bit 31 was 0, now ours
  ASSERT_TRUE(dev->write32(kData, 0x11223344).has_value());
  // Without the chip-select support mask chip select 0 is not driven: reads float high.
  ASSERT_TRUE(dev->write32(kCmd, rdid_word(kLock | kFlashEnable)).has_value());
  EXPECT_EQ(dev->peek32(kData), 0xffffffffu);
  ASSERT_TRUE(dev->write32(kCsSupport, 0x3).has_value());
  // Without flash enable nothing happens: DATA keeps what it held, BUSY clears.
  ASSERT_TRUE(dev->write32(kData, 0x11223344).has_value());
  ASSERT_TRUE(dev->write32(kCmd, rdid_word(kLock)).has_value());
  EXPECT_EQ(dev->peek32(kData), 0x11223344u);
  EXPECT_EQ(dev->peek32(kCmd) & kBusy, 0u);
  // Chip select 1: no second part on the simulated board.
  ASSERT_TRUE(dev->write32(kCmd, rdid_word(kLock | kFlashEnable | (1u << 11))).has_value());
  EXPECT_EQ(dev->peek32(kData), 0xffffffffu);
  // Flash enable, chip select 0: the N25Q128A answers (Micron 0x20, 0xba, 0x18).
  ASSERT_TRUE(dev->write32(kCmd, rdid_word(kLock | kFlashEnable)).has_value());
  EXPECT_EQ(dev->peek32(kData) >> 8, 0x20ba18u);
  EXPECT_NE(dev->peek32(kCmd) & kLock, 0u);  // the command kept the lock
  // A command word without bit 31 gives the lock away.
  ASSERT_TRUE(dev->write32(kCmd, rdid_word(kFlashEnable)).has_value());
  EXPECT_FALSE(dev->gateway().locked());
  (void)kAddr;
}

TEST(SwitchXGateway, CacheReplacementGuardRefusesUnlessOverridden) {
  auto dev = make_switchx();
  sim::SimFaults faults;
  faults.cache_replacement_pending = true;
  dev->set_faults(faults);
  EXPECT_TRUE(dev->faults().cache_replacement_pending);
  EXPECT_NE(dev->peek32(0xf0408) & 0x3ffffff, 0u);
  {
    auto refused = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().code(), ErrorCode::Busy);
    EXPECT_NE(refused.error().message().find("cache"), std::string::npos) << refused.error().message();
    EXPECT_NE(refused.error().message().find("--ocr"), std::string::npos) << refused.error().message();
  }
  EXPECT_FALSE(dev->gateway().locked());  // the refusal released the lock it took
  EXPECT_TRUE(dev->faults().cache_replacement_pending);
  auto opened = FlashDriver::open(*dev, dev->info().flash_gateway, fast(), CacheReplacement::Override);
  ASSERT_TRUE(opened.has_value()) << opened.error().message();
  // The override wrote the hw-id register: the firmware finished the replacement.
  EXPECT_FALSE(dev->faults().cache_replacement_pending);
  EXPECT_EQ(read_or(*dev, 0xf0014, 0) & 0xffff, 0x245u);  // still read-only
}

TEST(SwitchXGateway, RunningFirmwareVersionAt0x60040) {
  auto dev = make_switchx();
  EXPECT_EQ(read_or(*dev, 0x60040, 1), 0u);  // blank flash: recovery, nothing runs
  auto image = test::read_file(test::sample_image("switchx-new"));
  ASSERT_FALSE(image.empty());
  image.resize(dev->flash().contents().size(), 0xff);  // the image file at flash offset 0
  ASSERT_TRUE(dev->flash().set_contents(image).has_value());
  dev->power_cycle();
  ASSERT_FALSE(dev->boot_state().recovery);
  EXPECT_EQ(dev->pci_device_id(), 0xc738);
  EXPECT_EQ(read_or(*dev, 0x60040, 0), (9u << 16) | 4u);  // 9.4.5110
  EXPECT_EQ(read_or(*dev, 0x60044, 0), 5110u << 16);
}

}  // namespace
}  // namespace openflint
