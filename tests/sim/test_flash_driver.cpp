// FlashDriver on simulated devices: probe, read/erase/program, lock, faults, differential writes.
#include <gtest/gtest.h>

#include <numeric>

#include "flash/FlashDriver.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using sim::SimDevice;
using sim::SimFaults;

FlashTimeouts fast_timeouts() {
  FlashTimeouts t;
  t.lock = std::chrono::milliseconds(50);
  t.write_in_progress = std::chrono::milliseconds(100);
  return t;
}

std::unique_ptr<SimDevice> make(const char* model) {
  auto dev = SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

FlashDriver open(SimDevice& dev) {
  auto driver = FlashDriver::open(dev, dev.info().flash_gateway, fast_timeouts());
  EXPECT_TRUE(driver.has_value()) << driver.error().message();
  return std::move(driver).value();
}

std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) { return test::random_bytes(n, seed); }

class DriverRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(DriverRoundTrip, ProbeReadEraseProgram) {
  auto dev = make(GetParam());
  FlashDriver flash = open(*dev);
  EXPECT_EQ(flash.chip().name, dev->info().default_flash_chip);
  EXPECT_EQ(flash.size(), dev->flash().contents().size());

  const std::uint64_t base = flash.size() - 2 * flash.sector_size();  // top: exercises 4-byte
  const auto data = pattern(1000, 7);
  ASSERT_TRUE(flash.program(base + 3, data).has_value());  // unaligned start, crosses pages
  auto back = flash.read(base + 3, data.size());
  ASSERT_THAT(back, test::IsOk());
  EXPECT_EQ(*back, data);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), dev->flash().contents().begin() + base + 3));
  EXPECT_EQ(dev->flash().counters().programs, 4u);  // 253 + 256 + 256 + 235 bytes: one per page

  ASSERT_TRUE(flash.erase_sector(base).has_value());
  auto erased = flash.read(base, flash.sector_size());
  ASSERT_TRUE(erased.has_value());
  EXPECT_TRUE(std::all_of(erased->begin(), erased->end(), [](std::uint8_t b) { return b == 0xff; }));
  EXPECT_EQ(dev->flash().counters().erases, 1u);

  auto unaligned = flash.erase_sector(base + 1);
  ASSERT_THAT(unaligned, test::FailsWith(ErrorCode::InvalidArgument));
  auto outside = flash.read(flash.size() - 4, 8);
  ASSERT_THAT(outside, test::FailsWith(ErrorCode::InvalidArgument));
}

INSTANTIATE_TEST_SUITE_P(Devices, DriverRoundTrip,
                         ::testing::Values("connectx3", "spectrum", "spectrum2", "connectx7", "mt26428"));

TEST(FlashDriver, SecondLockAttemptFailsWhileFirstIsHeld) {
  for (const char* model : {"connectx3", "spectrum"}) {
    SCOPED_TRACE(model);
    auto dev = make(model);
    {
      FlashDriver first = open(*dev);
      auto second = FlashDriver::open(*dev, dev->info().flash_gateway, fast_timeouts());
      ASSERT_THAT(second, test::FailsWith(ErrorCode::Busy));
      auto lock = FlashLock::acquire(*dev, dev->info().flash_gateway, std::chrono::milliseconds(5));
      EXPECT_FALSE(lock.has_value());
      EXPECT_TRUE(dev->gateway().locked());
    }
    EXPECT_FALSE(dev->gateway().locked());  // released on scope exit
    auto again = FlashDriver::open(*dev, dev->info().flash_gateway, fast_timeouts());
    EXPECT_TRUE(again.has_value());
  }
}

TEST(FlashDriver, PowerCutAfterNOpsThenEveryAccessFails) {
  auto dev = make("spectrum");
  FlashDriver flash = open(*dev);
  SimFaults faults;
  faults.power_cut_after_ops = 3;
  dev->set_faults(faults);
  const auto data = pattern(4 * 256, 3);
  auto r = flash.program(0, data);  // 4 page programs: the 3rd cuts power
  ASSERT_THAT(r, test::FailsWith(ErrorCode::Io));
  EXPECT_NE(r.error().message().find("powered off"), std::string::npos) << r.error().message();
  EXPECT_FALSE(dev->powered());
  EXPECT_EQ(dev->flash().counters().programs, 3u);
  EXPECT_FALSE(dev->read32(0xf0014).has_value());
  EXPECT_FALSE(dev->write32(0xf0404, 0).has_value());
  EXPECT_FALSE(flash.read(0, 16).has_value());
  // What was programmed before the cut survives a power cycle; the 4th page never was.
  dev->power_cycle();
  FlashDriver after = open(*dev);
  auto back = after.read(0, data.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(std::equal(data.begin(), data.begin() + 768, back->begin()));
  EXPECT_TRUE(std::all_of(back->begin() + 768, back->end(), [](std::uint8_t b) { return b == 0xff; }));
}

TEST(FlashDriver, WritesOnlySectorsThatDiffer) {
  auto dev = make("spectrum");  // N25Q128A: 4 KiB sectors
  FlashDriver flash = open(*dev);
  auto image = pattern(64 * 1024, 11);
  std::fill(image.begin() + 0x3000, image.begin() + 0x4000, 0xff);  // one all-0xFF sector
  std::fill(image.begin() + 0x5100, image.begin() + 0x5200, 0xff);  // one 0xFF page

  auto first = flash.write_sectors_that_differ(0, image);
  ASSERT_THAT(first, test::IsOk());
  EXPECT_EQ(first->sectors_total, 16u);
  EXPECT_EQ(first->sectors_unchanged, 1u);       // the 0xFF sector already matches erased flash
  EXPECT_EQ(first->sectors_erased, 0u);          // blank flash: programming alone suffices
  EXPECT_EQ(first->sectors_program_only, 15u);
  EXPECT_EQ(first->pages_programmed, 15u * 16 - 1);
  EXPECT_EQ(dev->flash().counters().erases, 0u);
  EXPECT_EQ(dev->flash().counters().programs, 15u * 16 - 1);

  auto same = flash.write_sectors_that_differ(0, image);
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->sectors_unchanged, 16u);
  EXPECT_EQ(dev->flash().counters().programs, 15u * 16 - 1);

  ASSERT_NE(image[0x7123], 0);  // the seed gives a byte with a bit to clear
  auto clear_only = image;
  clear_only[0x7123] = static_cast<std::uint8_t>(image[0x7123] & (image[0x7123] - 1));
  auto cleared = flash.write_sectors_that_differ(0, clear_only);
  ASSERT_TRUE(cleared.has_value());
  EXPECT_EQ(cleared->sectors_erased, 0u);  // only 1 -> 0 bits: program without erase
  EXPECT_EQ(cleared->sectors_program_only, 1u);
  EXPECT_EQ(cleared->pages_programmed, 1u);
  EXPECT_EQ(cleared->bytes_programmed, 1u);

  auto set_bit = clear_only;
  set_bit[0xa010] = static_cast<std::uint8_t>(~clear_only[0xa010]);  // needs 0 -> 1 bits
  auto changed = flash.write_sectors_that_differ(0, set_bit);
  ASSERT_TRUE(changed.has_value());
  EXPECT_EQ(changed->sectors_erased, 1u);
  EXPECT_EQ(changed->sectors_unchanged, 15u);
  EXPECT_EQ(changed->pages_programmed, 16u);  // the whole random sector is reprogrammed
  auto back = flash.read(0, set_bit.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, set_bit);
}

TEST(FlashDriver, DifferentialWriteAtUnalignedOffsetPreservesNeighbours) {
  auto dev = make("connectx3");
  FlashDriver flash = open(*dev);
  const auto base = pattern(8192, 5);
  ASSERT_TRUE(flash.write_sectors_that_differ(0, base).has_value());
  const std::vector<std::uint8_t> patch(100, 0x5a);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
  auto stats = flash.write_sectors_that_differ(0x0fd0, patch, [&](std::uint64_t done, std::uint64_t total) {
    progress.emplace_back(done, total);
  });
  ASSERT_THAT(stats, test::IsOk());
  EXPECT_EQ(stats->sectors_total, 2u);
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().first, 100u);
  EXPECT_EQ(progress.back().second, 100u);
  auto expected = base;
  std::copy(patch.begin(), patch.end(), expected.begin() + 0x0fd0);
  auto back = flash.read(0, 8192);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, expected);
}

TEST(FlashDriver, VerifyFailsOnWriteProtectedChip) {
  auto dev = make("connectx4");
  FlashDriver flash = open(*dev);
  SimFaults faults;
  faults.flash_write_protected = true;
  dev->set_faults(faults);
  auto r = flash.write_sectors_that_differ(0, pattern(4096, 1));
  ASSERT_THAT(r, test::FailsWith(ErrorCode::Mismatch));
  EXPECT_NE(r.error().message().find("verify"), std::string::npos);
}

// mstflint --no_flash_verify: the same failed write goes unnoticed without the read-back, and
// the read-back was the only thing reading after the erase (no reads counted past it).
TEST(FlashDriver, WriteCheckNoneSkipsTheReadBack) {
  auto dev = make("connectx4");
  FlashDriver flash = open(*dev);
  SimFaults faults;
  faults.flash_write_protected = true;
  dev->set_faults(faults);
  auto r = flash.write_sectors_that_differ(0, pattern(4096, 1), {}, WriteCheck::None);
  EXPECT_TRUE(r.has_value()) << r.error().message();
  dev->set_faults({});
  const auto data = pattern(4096, 2);
  auto ok = flash.write_sectors_that_differ(0x1000, data, {}, WriteCheck::None);
  ASSERT_THAT(ok, test::IsOk());
  auto back = flash.read(0x1000, data.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, data);
}

TEST(FlashDriver, SlowFlashIsWaitedFor) {
  auto dev = make("spectrum");
  FlashDriver flash = open(*dev);
  SimFaults faults;
  faults.flash_busy_polls = 50;
  dev->set_faults(faults);
  ASSERT_TRUE(flash.erase_sector(0x10000).has_value());
  const std::vector<std::uint8_t> data(32, 0x42);
  ASSERT_TRUE(flash.program(0x10000, data).has_value());
  EXPECT_EQ(*flash.read(0x10000, 32), data);
}

TEST(FlashDriver, WipTimeoutWhenChipNeverGetsReady) {
  auto dev = make("connectx3");
  FlashDriver flash = open(*dev);
  SimFaults faults;
  faults.flash_stuck_busy = true;
  dev->set_faults(faults);
  const auto start = std::chrono::steady_clock::now();
  auto r = flash.erase_sector(0);
  ASSERT_THAT(r, test::FailsWith(ErrorCode::Timeout));
  EXPECT_NE(r.error().message().find("WIP"), std::string::npos) << r.error().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(FlashDriver, GatewayFailureSurfacesAsIoError) {
  auto dev = make("spectrum2");
  FlashDriver flash = open(*dev);
  SimFaults faults;
  faults.fail_gateway_command = 5;
  dev->set_faults(faults);
  auto r = flash.read(0, 256);
  ASSERT_THAT(r, test::FailsWith(ErrorCode::Io));
  EXPECT_NE(r.error().message().find("reading flash at 0x0"), std::string::npos) << r.error().message();
}

TEST(FlashDriver, RefusesGatewaysItCannotDrive) {
  auto dev = make("connectx3");
  FlashGatewayInfo mediated = dev->info().flash_gateway;
  mediated.generation = GatewayGeneration::FirmwareMediated;
  auto r = FlashDriver::open(*dev, mediated, fast_timeouts());
  ASSERT_THAT(r, test::FailsWith(ErrorCode::NotSupported));
}

}  // namespace
}  // namespace openflint
