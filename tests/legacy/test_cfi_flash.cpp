// test_cfi_flash: the simulated InfiniHost parallel gateway and CFI parts, and the parallel driver
// on them — the CFI answers, both command sets, bank switching, faults.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "devices/DeviceCatalog.h"
#include "flash/FlashDriver.h"
#include "flash/ParallelFlash.h"
#include "sim/SimDevice.h"

namespace openflint {
namespace {

using sim::SimDevice;

constexpr std::uint32_t kCmd = 0xf01a4, kData = 0xf01a8, kCpuMode = 0xf0150;
constexpr std::uint32_t kGpioDir = 0xf008c, kGpioData = 0xf0084, kGpioSet = 0xf00dc, kGpioClear = 0xf00d4;

std::unique_ptr<SimDevice> make(const std::string& model, const char* chip = nullptr) {
  auto info = find_device_by_sim_model(model);
  EXPECT_TRUE(info.has_value());
  const FlashChip* part = nullptr;
  if (chip != nullptr) part = *find_flash_chip_by_name(chip);
  auto dev = SimDevice::create(**info, part);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

FlashTimeouts fast() {
  FlashTimeouts t;
  t.lock = std::chrono::milliseconds(50);
  t.write_in_progress = std::chrono::milliseconds(200);
  t.gateway_busy = std::chrono::milliseconds(50);
  return t;
}

// Raw gateway cycles, as the reference describes them (no driver involved).
struct RawBus {
  SimDevice& dev;
  void write1(std::uint32_t addr, std::uint8_t v) {
    ASSERT_TRUE(dev.write32(kData, std::uint32_t{v} << 24).has_value());
    ASSERT_TRUE(dev.write32(kCmd, (2u << 29) | addr).has_value());
    EXPECT_EQ(*dev.read32(kCmd) >> 29, 0u);  // the cycle is done at once
  }
  std::uint32_t read4(std::uint32_t addr) {
    EXPECT_TRUE(dev.write32(kCmd, (1u << 29) | addr).has_value());
    EXPECT_EQ(*dev.read32(kCmd) >> 29, 0u);
    return *dev.read32(kData);
  }
  std::uint8_t byte(std::uint32_t addr) { return static_cast<std::uint8_t>(read4(addr & ~3u) >> (24 - 8 * (addr % 4))); }
  void hand_over() { ASSERT_TRUE(dev.write32(kCpuMode, 1u << 30).has_value()); }
};

TEST(CfiQuery, AmdPartAnswersAsAnX8Part) {
  auto dev = make("mt23108");
  RawBus bus{*dev};
  bus.hand_over();
  bus.write1(0x55, 0xff);
  bus.write1(0x55, 0x98);
  EXPECT_EQ(bus.read4(0x10), 0x51525902u);  // "QRY", command set 2 (AMD) low byte
  EXPECT_EQ(bus.byte(0x14), 0u);            // command set high byte
  EXPECT_EQ(bus.byte(0x27), 22u);           // 4 MiB
  EXPECT_EQ(bus.byte(0x2a), 0u);            // no write buffer
  EXPECT_EQ(bus.byte(0x2c), 1u);            // one erase region
  EXPECT_EQ(bus.byte(0x2d) | (bus.byte(0x2e) << 8), 63u);     // 64 blocks
  EXPECT_EQ(bus.byte(0x2f) | (bus.byte(0x30) << 8), 0x100u);  // of 64 KiB
  bus.write1(0x555, 0xf0);  // reset: array reads (blank)
  EXPECT_EQ(bus.read4(0x10), 0xffffffffu);
}

TEST(CfiQuery, IntelPartAnswersAsAnX16PartInX8Mode) {
  auto dev = make("mt25208");
  RawBus bus{*dev};
  bus.hand_over();
  bus.write1(0x55, 0xff);
  bus.write1(0x55, 0x98);
  EXPECT_NE(bus.read4(0x10) >> 8, 0x515259u);  // not at the x8 offsets
  EXPECT_EQ(bus.byte(0x20), 'Q');
  EXPECT_EQ(bus.byte(0x22), 'R');
  EXPECT_EQ(bus.byte(0x24), 'Y');
  EXPECT_EQ(bus.byte(0x21), 0u);               // odd addresses: the high byte
  EXPECT_EQ(bus.byte(0x26), 1u);               // command set 1 (Intel)
  EXPECT_EQ(bus.byte(0x4e), 22u);              // 0x27 doubled: 4 MiB
  EXPECT_EQ(bus.byte(0x54), 5u);               // 0x2A: 32-byte write buffer
  EXPECT_EQ(bus.byte(0x58), 1u);               // 0x2C: one region
  EXPECT_EQ(bus.byte(0x5a), 31u);              // 0x2D: 32 blocks
  EXPECT_EQ(bus.byte(0x5e) | (bus.byte(0x60) << 8), 0x200u);  // 0x2F-0x30: 128 KiB
  bus.write1(0, 0xff);
  EXPECT_EQ(bus.read4(0x20), 0xffffffffu);
}

TEST(ParallelGateway, WithoutTheBusHandOverNothingReachesThePart) {
  auto dev = make("mt23108");
  RawBus bus{*dev};
  bus.write1(0x55, 0x98);  // CPUMODE still 00
  EXPECT_EQ(bus.read4(0x10), 0xffffffffu);
  bus.hand_over();
  EXPECT_EQ(bus.read4(0x10), 0xffffffffu);  // the query command never arrived: array reads
}

TEST(ParallelGateway, AmdProgramNeedsTheUnlockCycles) {
  auto dev = make("mt23108");
  RawBus bus{*dev};
  bus.hand_over();
  bus.write1(0x555, 0xa0);  // no unlock
  bus.write1(0x100, 0x12);
  EXPECT_EQ(dev->flash().contents()[0x100], 0xff);
  bus.write1(0x555, 0xaa);
  bus.write1(0x2aa, 0x55);
  bus.write1(0x555, 0xa0);
  bus.write1(0x100, 0x12);
  EXPECT_EQ(dev->flash().contents()[0x100], 0x12);
  EXPECT_EQ(bus.byte(0x100), 0x12);
  EXPECT_EQ(dev->counters().flash.programs, 1u);
}

TEST(ParallelGateway, BanksComeFromTheGpioPinsOnlyWhenTheyAreOutputs) {
  auto dev = make("mt25208");
  std::vector<std::uint8_t> flash(dev->flash().contents().begin(), dev->flash().contents().end());
  flash[0x80000] = 0x5a;  // bank 1, offset 0
  flash[0] = 0x11;
  ASSERT_TRUE(dev->flash().set_contents(flash).has_value());
  RawBus bus{*dev};
  bus.hand_over();
  ASSERT_TRUE(dev->write32(kGpioSet, 1u << 4).has_value());
  EXPECT_EQ(dev->cr_space().peek(kGpioData) & 0x70, 0x10u);
  EXPECT_EQ(bus.byte(0), 0x11);  // pins are inputs: bank 0
  ASSERT_TRUE(dev->write32(kGpioDir, 0x70).has_value());
  EXPECT_EQ(bus.byte(0), 0x5a);  // bank 1
  ASSERT_TRUE(dev->write32(kGpioClear, 0x70).has_value());
  EXPECT_EQ(bus.byte(0), 0x11);
}

class BothParts : public ::testing::TestWithParam<const char*> {};

TEST_P(BothParts, DriverProbesErasesProgramsAcrossBanksAndRestoresTheGpios) {
  auto dev = make(GetParam());
  ASSERT_TRUE(dev->write32(kGpioDir, 0x3).has_value());  // someone's GPIO setting, to be restored
  {
    auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
    ASSERT_TRUE(driver.has_value()) << driver.error().message();
    EXPECT_EQ(driver->chip().name, dev->info().default_flash_chip);
    EXPECT_TRUE(dev->gateway().locked());
    EXPECT_EQ(dev->cr_space().peek(kCpuMode) >> 30, 1u);
    // 600 bytes across the first 512 KiB bank boundary (and so across an erase block).
    std::vector<std::uint8_t> data(600);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7 + 3);
    const std::uint32_t at = 0x80000 - 300;
    auto w = driver->write_sectors_that_differ(at, data);
    ASSERT_TRUE(w.has_value()) << w.error().message();
    EXPECT_TRUE(std::equal(data.begin(), data.end(), dev->flash().contents().begin() + at));
    auto back = driver->read(at, data.size());
    ASSERT_TRUE(back.has_value()) << back.error().message();
    EXPECT_EQ(*back, data);
    // Erase the second block: its bytes go back to 0xFF, the first block's stay.
    const std::uint32_t block = driver->sector_size();
    ASSERT_TRUE(driver->erase_sector(0x80000).has_value());
    EXPECT_EQ(dev->flash().contents()[0x80000], 0xff);
    EXPECT_EQ(dev->flash().contents()[0x80000 - 1], data[299]);
    EXPECT_EQ(block, dev->flash().chip().block_size);
    auto status = driver->read_status();
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(*status & 0x80, 0x80);
  }
  EXPECT_FALSE(dev->gateway().locked());
  EXPECT_EQ(dev->cr_space().peek(kGpioDir), 0x3u);
}

TEST_P(BothParts, SlowPartIsPolledUntilDone) {
  auto dev = make(GetParam());
  sim::SimFaults f;
  f.flash_busy_polls = 7;
  dev->set_faults(f);
  auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
  ASSERT_TRUE(driver.has_value()) << driver.error().message();
  const std::vector<std::uint8_t> data{1, 2, 3, 4, 5, 6, 7, 8, 9};
  ASSERT_TRUE(driver->program(0x1000, data).has_value());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), dev->flash().contents().begin() + 0x1000));
  ASSERT_TRUE(driver->erase_sector(0).has_value());
  EXPECT_EQ(dev->flash().contents()[0x1000], 0xff);
}

TEST_P(BothParts, WriteProtectedAndStuckPartsFailTheOperation) {
  auto dev = make(GetParam());
  auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
  ASSERT_TRUE(driver.has_value()) << driver.error().message();
  sim::SimFaults f;
  f.flash_write_protected = true;
  dev->set_faults(f);
  const std::vector<std::uint8_t> data{0x12, 0x34};
  auto r = driver->program(0x2000, data);
  ASSERT_FALSE(r.has_value());
  // Intel reports it in the status register; an AMD part just never shows the data.
  EXPECT_EQ(r.error().code(), dev->flash().chip().cfi.command_set == 1 ? ErrorCode::Io : ErrorCode::Timeout)
      << r.error().message();
  EXPECT_NE(r.error().message().find("programming flash at 0x2000"), std::string::npos) << r.error().message();
  EXPECT_EQ(dev->flash().contents()[0x2000], 0xff);
  f = {};
  f.flash_stuck_busy = true;
  dev->set_faults(f);
  auto e = driver->erase_sector(0);
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code(), ErrorCode::Timeout) << e.error().message();
}

TEST_P(BothParts, AFailingGatewayCommandIsAnIoError) {
  auto dev = make(GetParam());
  auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
  ASSERT_TRUE(driver.has_value()) << driver.error().message();
  sim::SimFaults f;
  f.fail_gateway_command = 3;
  dev->set_faults(f);
  auto r = driver->read(0, 64);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
}

INSTANTIATE_TEST_SUITE_P(Legacy, BothParts, ::testing::Values("mt23108", "mt25208"));

TEST(ParallelFlash, EachModelDrivesTheOtherCommandSetToo) {
  // The command set comes from the part's CFI answer, not from the device: swap the parts.
  for (const auto& [model, chip] : {std::pair{"mt23108", "28F320J3"}, std::pair{"mt25208", "Am29LV033C"}}) {
    SCOPED_TRACE(model);
    auto dev = make(model, chip);
    auto driver = FlashDriver::open(*dev, dev->info().flash_gateway, fast());
    ASSERT_TRUE(driver.has_value()) << driver.error().message();
    EXPECT_EQ(driver->chip().name, chip);
    const std::vector<std::uint8_t> data(100, 0x3c);
    ASSERT_TRUE(driver->write_sectors_that_differ(0x300000, data).has_value());
    EXPECT_EQ(dev->flash().contents()[0x300000 + 99], 0x3c);
  }
}

// Counts round trips as a MAD transport makes them: every call one (a write_sequence is one
// SET MAD, a read_block of up to 56 dwords one GET).
class RoundTrips final : public RegisterAccess {
 public:
  explicit RoundTrips(RegisterAccess& inner) : inner_(&inner) {}
  Result<std::uint32_t> read32(std::uint32_t a) override { ++count; return inner_->read32(a); }
  Result<void> write32(std::uint32_t a, std::uint32_t v) override { ++count; return inner_->write32(a, v); }
  Result<void> read_block(std::uint32_t a, std::span<std::uint32_t> out) override {
    ++count;
    return inner_->read_block(a, out);
  }
  Result<void> write_sequence(std::span<const RegisterWrite> w) override {
    ++count;
    return inner_->write_sequence(w);
  }
  std::size_t max_block_dwords() const override { return 56; }
  bool costly_access() const override { return true; }
  std::uint64_t count = 0;

 private:
  RegisterAccess* inner_;
};

TEST_P(BothParts, RoundTripsPerProgrammedByteAndPerReadDword) {
  auto dev = make(GetParam());
  RoundTrips trips(*dev);
  auto flash = ParallelFlash::open(trips, dev->info().flash_gateway, fast());
  ASSERT_TRUE(flash.has_value()) << flash.error().message();
  ASSERT_TRUE((*flash)->erase(0x10000).has_value());
  std::vector<std::uint8_t> data(1024);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 5 + 1) & 0x7f;
  trips.count = 0;
  ASSERT_TRUE((*flash)->program(0x10000, data).has_value());
  const double per_byte = static_cast<double>(trips.count) / static_cast<double>(data.size());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), dev->flash().contents().begin() + 0x10000));
  // AMD in unlock bypass: 0xA0, data, one data poll, each a cycle + its poll = 2 trips (plain
  // programs were 15: four write cycles of 3 and a read of 3). Intel buffered: far fewer.
  EXPECT_LE(per_byte, 6.1) << GetParam();
  std::vector<std::uint8_t> back(data.size());
  trips.count = 0;
  ASSERT_TRUE((*flash)->read(0x10000, back).has_value());
  EXPECT_EQ(back, data);
  EXPECT_EQ(trips.count, 2 * data.size() / 4);  // CMD write, then CMD..DATA in one block read
  std::printf("[cfi] %s: %.2f round trips per programmed byte, %.2f per read dword\n", GetParam(), per_byte,
              static_cast<double>(trips.count) / static_cast<double>(data.size() / 4));
  // Out of unlock bypass again: the part takes a CFI query (a part left in bypass ignores it).
  ASSERT_TRUE((*flash)->write1(0x55, 0x98).has_value());
  const auto at10 = (*flash)->read4(0x10), at20 = (*flash)->read4(0x20);
  ASSERT_TRUE(at10.has_value() && at20.has_value());
  EXPECT_TRUE((*at10 >> 24) == 'Q' || (*at20 >> 24) == 'Q') << std::hex << *at10 << " " << *at20;
}

TEST(ParallelFlash, SpiPartsCannotSitOnTheParallelGateway) {
  auto info = find_device_by_sim_model("mt25208");
  ASSERT_TRUE(info.has_value());
  auto dev = SimDevice::create(**info, *find_flash_chip_by_name("M25P16"));
  ASSERT_FALSE(dev.has_value());
  EXPECT_EQ(dev.error().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace openflint
