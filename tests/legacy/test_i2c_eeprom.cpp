// test_i2c_eeprom: the simulated InfiniScale EEPROMs (24Cxx rules: page wrap, write cycle, write
// protect, power cut mid-cycle) and the EEPROM burner over them (flash/EepromFlash via FlashDriver).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "devices/DeviceCatalog.h"
#include "flash/EepromFlash.h"
#include "flash/FlashDriver.h"
#include "fwops/Device.h"
#include "sim/SimDevice.h"

namespace openflint {
namespace {

using sim::SimDevice;

std::unique_ptr<SimDevice> make(const std::string& model = "mt47396") {
  auto dev = SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

FlashTimeouts fast() {
  FlashTimeouts t;
  t.eeprom_write_cycle = std::chrono::milliseconds(50);
  return t;
}

std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + 7 * i);
  return v;
}

// Retries a transaction while the EEPROM is in its write cycle; returns how many NACKs it saw.
template <typename Op>
int until_acked(Op op) {
  for (int nacks = 0; nacks < 100; ++nacks) {
    auto r = op();
    if (r) return nacks;
    EXPECT_EQ(r.error().code(), ErrorCode::Busy) << r.error().message();
  }
  ADD_FAILURE() << "never acknowledged";
  return -1;
}

TEST(InfiniScaleSim, IdentifiesAtItsOwnHwIdRegister) {
  auto is3 = make("mt47396");
  EXPECT_EQ(*is3->read32(0x60014), 0x00a0b924u);  // rev A0, 47396
  EXPECT_EQ(*is3->read32(0xf0014), 0u);           // not the usual register
  auto is1 = make("mt43132");
  EXPECT_EQ(*is1->read32(0x3014), 0x00a0a87cu);
  ASSERT_NE(is3->i2c(), nullptr);
  EXPECT_EQ(is3->flash().chip().name, "4x24C512");
  EXPECT_EQ(is3->flash().contents().size(), 256u * 1024);
}

// What an in-band or PCI open does: 0xf0014 first, then each other hw-id address of the catalog.
TEST(InfiniScaleSim, IdentifiedThroughTheCatalogsHwIdAddresses) {
  for (const char* model : {"mt47396", "mt43132", "connectx4"}) {
    auto dev = make(model);
    auto info = identify_device(*dev, model);
    ASSERT_TRUE(info.has_value()) << model << ": " << info.error().message();
    EXPECT_EQ((*info)->sim_model, model);
  }
}

TEST(InfiniScaleSim, FourEepromsAtTheInferredAddresses) {
  auto dev = make();
  I2cAccess& bus = *dev->i2c();
  const std::array<std::uint8_t, 4> addresses{0x56, 0x57, 0x52, 0x53};
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    const auto data = pattern(16, static_cast<std::uint8_t>(i + 1));
    ASSERT_TRUE(bus.write(addresses[i], 0x100, data).has_value());
    std::vector<std::uint8_t> back(16);
    EXPECT_GT(until_acked([&] { return bus.read(addresses[i], 0x100, back); }), 0);  // write cycle: NACKs first
    EXPECT_EQ(back, data);
    // EEPROM i is bytes [i * 64 KiB, (i + 1) * 64 KiB) of the linear image (flash.bin).
    const auto cells = dev->flash().contents().subspan(i * 0x10000 + 0x100, 16);
    EXPECT_TRUE(std::equal(cells.begin(), cells.end(), data.begin()));
  }
  std::uint8_t b = 0;
  auto absent = bus.read(0x50, 0, std::span(&b, 1));
  ASSERT_FALSE(absent.has_value());
  EXPECT_EQ(absent.error().code(), ErrorCode::Busy);  // nobody acknowledges
}

TEST(InfiniScaleSim, PageWriteWrapsInsideItsPageAndReadsCrossPages) {
  auto dev = make();
  I2cAccess& bus = *dev->i2c();
  // 16 bytes from 8 before the end of page 1 (0x80..0xff): the last 8 land at the page start.
  const auto data = pattern(16, 0x40);
  ASSERT_TRUE(bus.write(0x56, 0xf8, data).has_value());
  std::vector<std::uint8_t> high(0x80), low(0x80);
  until_acked([&] { return bus.read(0x56, 0xc0, high); });  // 0xc0..0x13f: pages 1 and 2 in one read
  ASSERT_TRUE(bus.read(0x56, 0x40, low).has_value());       // 0x40..0xbf: pages 0 and 1
  EXPECT_TRUE(std::equal(data.begin(), data.begin() + 8, high.begin() + 0x38));  // 0xf8..0xff
  EXPECT_EQ(high[0x37], 0xff);                                                   // 0xf7: before the write
  EXPECT_EQ(high[0x40], 0xff);                                                   // 0x100: next page untouched
  EXPECT_TRUE(std::equal(data.begin() + 8, data.end(), low.begin() + 0x40));    // 0x80..0x87: wrapped
  EXPECT_EQ(low[0x48], 0xff);                                                    // 0x88: after the wrapped part
  EXPECT_EQ(low[0x3f], 0xff);                                                    // 0x7f: page 0 untouched
}

TEST(InfiniScaleSim, WriteProtectPinIgnoresWrites) {
  auto dev = make();
  sim::SimFaults f;
  f.flash_write_protected = true;
  dev->set_faults(f);
  const auto data = pattern(8, 1);
  ASSERT_TRUE(dev->i2c()->write(0x56, 0, data).has_value());  // acknowledged ...
  std::vector<std::uint8_t> back(8);
  EXPECT_EQ(until_acked([&] { return dev->i2c()->read(0x56, 0, back); }), 0);  // ... no write cycle ...
  EXPECT_EQ(back, std::vector<std::uint8_t>(8, 0xff));                          // ... nothing written
}

TEST(InfiniScaleSim, PowerCutMidWriteCycleLeavesThePagePartlyWritten) {
  auto dev = make();
  sim::SimFaults f;
  f.power_cut_after_ops = 2;
  dev->set_faults(f);
  const auto a = pattern(128, 3), b = pattern(128, 9);
  ASSERT_TRUE(dev->i2c()->write(0x57, 0, a).has_value());
  std::vector<std::uint8_t> back(1);
  until_acked([&] { return dev->i2c()->read(0x57, 0, back); });
  ASSERT_TRUE(dev->i2c()->write(0x57, 0x80, b).has_value());  // the power goes during this one
  EXPECT_FALSE(dev->powered());
  auto off = dev->i2c()->read(0x57, 0, back);
  ASSERT_FALSE(off.has_value());
  EXPECT_EQ(off.error().code(), ErrorCode::Io);
  dev->power_cycle();
  std::vector<std::uint8_t> page(256);
  ASSERT_TRUE(dev->i2c()->read(0x57, 0, std::span(page).first(128)).has_value());  // no write cycle survives the cut
  ASSERT_TRUE(dev->i2c()->read(0x57, 128, std::span(page).subspan(128)).has_value());
  EXPECT_TRUE(std::equal(a.begin(), a.end(), page.begin()));
  EXPECT_TRUE(std::equal(b.begin(), b.begin() + 64, page.begin() + 128));      // half got there
  EXPECT_EQ(std::count(page.begin() + 192, page.end(), 0xff), 64);             // the rest did not
}

TEST(EepromBurner, ReadsProgramsErasesWithAckPolling) {
  auto dev = make();
  auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
  ASSERT_TRUE(driver.has_value()) << driver.error().message();
  EXPECT_EQ(driver->size(), 256u * 1024);
  EXPECT_EQ(driver->sector_size(), 4096u);
  // 10 KiB straddling the first two EEPROMs (0x56 ends at 0x10000), not page aligned.
  const auto data = pattern(10 * 1024, 5);
  const std::uint32_t at = 0x10000 - 0x1234;
  auto stats = driver->write_sectors_that_differ(at, data);
  ASSERT_TRUE(stats.has_value()) << stats.error().message();
  EXPECT_EQ(stats->sectors_erased, 0u);  // EEPROMs are never erased: bytes are replaced
  auto back = driver->read(at, data.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, data);
  auto* eeprom = dynamic_cast<EepromFlash*>(driver->bus());
  ASSERT_NE(eeprom, nullptr);
  EXPECT_GT(eeprom->stats().busy_polls, 0u);  // the driver saw write cycles and polled through them
  EXPECT_GE(eeprom->stats().page_writes, 80u);
  EXPECT_GT(dev->counters().i2c.nacks, 0u);
  EXPECT_EQ(dev->counters().i2c.page_writes, eeprom->stats().page_writes);
  // Rewriting a few bytes writes only those (no erase, one page).
  auto changed = data;
  changed[100] ^= 0xff;
  const auto pages_before = eeprom->stats().page_writes;
  ASSERT_TRUE(driver->write_sectors_that_differ(at, changed).has_value());
  EXPECT_EQ(eeprom->stats().page_writes - pages_before, 1u);
  // An explicit erase writes 0xFF over the sector.
  ASSERT_TRUE(driver->erase_sector(0x10000).has_value());
  auto erased = driver->read(0x10000, 4096);
  ASSERT_TRUE(erased.has_value());
  EXPECT_EQ(std::count(erased->begin(), erased->end(), 0xff), 4096);
}

TEST(EepromBurner, WriteProtectIsOneClearErrorAndNothingChanges) {
  auto dev = make();
  const std::vector<std::uint8_t> before(dev->flash().contents().begin(), dev->flash().contents().end());
  sim::SimFaults f;
  f.flash_write_protected = true;
  dev->set_faults(f);
  auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
  ASSERT_TRUE(driver.has_value());
  auto r = driver->write_sectors_that_differ(0x3000, pattern(4096, 1));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::PermissionDenied);
  EXPECT_NE(r.error().message().find("write-protect pin is asserted"), std::string::npos) << r.error().message();
  EXPECT_EQ(r.error().message().find('\n'), std::string::npos);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), dev->flash().contents().begin()));
  EXPECT_EQ(dev->counters().i2c.page_writes, 0u);
}

TEST(EepromBurner, StuckWriteCycleTimesOut) {
  auto dev = make();
  sim::SimFaults f;
  f.flash_stuck_busy = true;
  dev->set_faults(f);
  auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
  ASSERT_FALSE(driver.has_value());
  EXPECT_EQ(driver.error().code(), ErrorCode::Timeout);
  EXPECT_NE(driver.error().message().find("did not acknowledge"), std::string::npos) << driver.error().message();
}

}  // namespace
}  // namespace openflint
