// InfiniHost III Lx (MT25204) SPI gateway: raw "special" commands, RES probe, driver round trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "devices/SpiOpcode.h"
#include "flash/FlashDriver.h"
#include "sim/SimDevice.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::sim {
namespace {

constexpr std::uint32_t kCmd = 0xf0400, kAddr = 0xf0404, kData = 0xf0408, kBank = 0xf0418;
constexpr std::uint32_t kBusy = 1u << 30;
constexpr std::uint32_t kRead = 1u << 0, kNoData = 1u << 4, kNoAddr = 1u << 5, kSpecial = 1u << 6;
std::uint32_t msize(unsigned log2) { return log2 << 8; }
std::uint32_t op(std::uint8_t opcode, std::uint32_t address = 0) { return (std::uint32_t{opcode} << 24) | address; }

std::unique_ptr<SimDevice> make() {
  auto dev = SimDevice::create("mt25204");
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

void exec(SimDevice& dev, std::uint32_t addr_word, std::uint32_t cmd) {
  ASSERT_TRUE(dev.write32(kAddr, addr_word).has_value());
  ASSERT_TRUE(dev.write32(kCmd, kBusy | cmd).has_value());
  EXPECT_EQ(*dev.read32(kCmd) & kBusy, 0u);
}

TEST(InfiniHostGateway, SimulatedFromTheCatalogRecord) {
  auto dev = make();
  EXPECT_EQ(dev->info().part_number, "MT25204");
  EXPECT_EQ(dev->flash().chip().name, "M25P16");
  EXPECT_EQ(*dev->read32(0xf0014) & 0xffff, 25204u);
  EXPECT_TRUE(dev->boot_state().recovery);  // blank flash
  EXPECT_EQ(dev->pci_device_id(), dev->info().pci_recovery_id);
}

TEST(InfiniHostGateway, ResReturnsTheSignatureInTheLastByte) {
  auto dev = make();
  exec(*dev, op(spi::kReadSignature), kSpecial | kNoAddr | kRead | msize(2));
  EXPECT_EQ(*dev->read32(kData) & 0xff, 0x14u);  // M25P16: log2(2 MiB) - 1
  exec(*dev, op(spi::kReadStatus), kSpecial | kNoAddr | kRead | msize(2));
  EXPECT_EQ(*dev->read32(kData) & 0xff, 0u);
}

TEST(InfiniHostGateway, WrenThenOneSixteenBytePageProgramThenPlainRead) {
  auto dev = make();
  exec(*dev, op(spi::kWriteEnable), kSpecial | kNoAddr | kNoData);
  for (std::uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(dev->write32(kData + 4 * i, 0x10203040u + i).has_value());
  exec(*dev, op(spi::kPageProgram, 0x1230), kSpecial | msize(4));
  EXPECT_EQ(dev->flash().counters().programs, 1u);  // no CS hold: committed at once
  const auto mem = dev->flash().contents();
  EXPECT_EQ(mem[0x1230], 0x10);
  EXPECT_EQ(mem[0x123f], 0x43);
  EXPECT_EQ(mem[0x1240], 0xff);
  exec(*dev, 0x1234, kRead | msize(4));  // no SPECIAL: an array read
  EXPECT_EQ(*dev->read32(kData), 0x10203041u);
  EXPECT_EQ(*dev->read32(kData + 12), 0xffffffffu);  // past 0x1240: erased
}

TEST(InfiniHostGateway, ProgramWithoutWrenAndOtherBanksDoNothing) {
  auto dev = make();
  ASSERT_TRUE(dev->write32(kData, 0).has_value());
  exec(*dev, op(spi::kPageProgram, 0), kSpecial | msize(2));
  EXPECT_EQ(dev->flash().contents()[0], 0xff);  // no write-enable latch
  ASSERT_TRUE(dev->write32(kBank, 1u << 30).has_value());
  exec(*dev, op(spi::kReadSignature), kSpecial | kNoAddr | kRead | msize(2));
  EXPECT_EQ(*dev->read32(kData) & 0xff, 0u);  // bank 1 is empty: DATA keeps its old value
}

TEST(InfiniHostGateway, DriverProbesByResAndRoundTrips) {
  auto dev = make();
  ASSERT_TRUE(dev->write32(kBank, 2u << 30).has_value());  // the driver selects bank 0 itself
  auto opened = FlashDriver::open(*dev, dev->info().flash_gateway);
  ASSERT_THAT(opened, test::IsOk());
  FlashDriver& flash = *opened;
  EXPECT_EQ(flash.chip().name, "M25P16");
  EXPECT_EQ(flash.size(), 2u * 1024 * 1024);
  EXPECT_EQ(flash.sector_size(), 64u * 1024);
  EXPECT_TRUE(dev->gateway().locked());  // the 0xf03fc semaphore

  std::mt19937 rng(5);
  std::vector<std::uint8_t> data(1000);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  const std::uint64_t base = flash.size() - 2 * flash.sector_size();
  ASSERT_TRUE(flash.program(base + 3, data).has_value());
  EXPECT_EQ(dev->flash().counters().programs, 63u);  // [base+3, base+1003) spans 63 16-byte blocks
  auto back = flash.read(base + 3, data.size());
  ASSERT_THAT(back, test::IsOk());
  EXPECT_EQ(*back, data);
  EXPECT_EQ(dev->flash().contents()[base + 2], 0xff);  // padding bytes stay erased
  EXPECT_EQ(dev->flash().contents()[base + 1003], 0xff);

  ASSERT_TRUE(flash.erase_sector(base).has_value());
  auto erased = flash.read(base, flash.sector_size());
  ASSERT_TRUE(erased.has_value());
  EXPECT_TRUE(std::all_of(erased->begin(), erased->end(), [](std::uint8_t b) { return b == 0xff; }));
  EXPECT_EQ(dev->flash().counters().erases, 1u);

  auto stats = flash.write_sectors_that_differ(0x10, data);
  ASSERT_THAT(stats, test::IsOk());
  EXPECT_EQ(stats->sectors_program_only, 1u);
  auto second = FlashDriver::open(*dev, dev->info().flash_gateway, FlashTimeouts{.lock = std::chrono::milliseconds(5)});
  ASSERT_THAT(second, test::FailsWith(ErrorCode::Busy));
}

TEST(InfiniHostGateway, NoChipAnsweringResIsNotFound) {
  auto dev = make();
  FlashGatewayInfo gateway = dev->info().flash_gateway;
  gateway.bank_select_addr = 0;  // the driver can no longer select bank 0
  ASSERT_TRUE(dev->write32(kBank, 3u << 30).has_value());
  ASSERT_TRUE(dev->write32(kData, 0xffffffffu).has_value());
  auto r = FlashDriver::open(*dev, gateway);
  ASSERT_THAT(r, test::FailsWith(ErrorCode::NotFound));
  EXPECT_NE(r.error().message().find("electronic signature"), std::string::npos) << r.error().message();
}

}  // namespace
}  // namespace openflint::sim
