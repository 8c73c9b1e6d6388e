// The simulated firmware's MFPA/MFBA/MFBE/MFMC and openflint's FirmwareFlashBus over them: writes and erases the firmware does, never the gateway.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "flash/FirmwareFlashBus.h"
#include "flash/FlashDriver.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"
#include "mtcr/inband/MadFormat.h"
#include "sim/SimDevice.h"
#include "sim/SimRegisterPort.h"
#include "tests/support/LiveDevice.h"
#include "tests/support/NarrowPort.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr std::uint32_t kSpare = 0x400000;  // past the live board's copy, before the second slot

AccessRegisterTlv transact(RegisterPort& port, std::uint16_t id, std::uint8_t method, std::vector<std::uint8_t> data) {
  AccessRegisterTlv r;
  r.register_id = id;
  r.method = method;
  r.data = std::move(data);
  auto answer = port.transact(r);
  EXPECT_TRUE(answer) << answer.error().message();
  return answer ? *answer : AccessRegisterTlv{};
}

std::uint8_t mfbe(RegisterPort& port, std::uint32_t address, std::uint32_t flags = 0) {
  std::vector<std::uint8_t> d(flash_reg::kMfbeBytes, 0);
  mad::put32(d.data(), 0x00, flags);
  mad::put32(d.data(), 0x08, address);
  return transact(port, flash_reg::kMfbe, AccessRegisterTlv::kMethodWrite, d).status;
}

std::uint8_t mfba_write(RegisterPort& port, std::uint32_t address, std::span<const std::uint8_t> bytes,
                        std::uint32_t size_field) {
  std::vector<std::uint8_t> d(flash_reg::kMfbaHeaderBytes + (bytes.size() + 3) / 4 * 4, 0);
  mad::put32(d.data(), 0x04, size_field);
  mad::put32(d.data(), 0x08, address);
  flash_reg::flash_bytes_to_wire(bytes, std::span(d).subspan(flash_reg::kMfbaHeaderBytes));
  return transact(port, flash_reg::kMfba, AccessRegisterTlv::kMethodWrite, d).status;
}

std::vector<std::uint8_t> flash_at(const sim::SimDevice& dev, std::uint32_t address, std::size_t n) {
  const auto all = dev.flash().contents();
  return {all.begin() + address, all.begin() + address + static_cast<std::ptrdiff_t>(n)};
}

TEST(FlashAccessRegisters, MfpaDescribesTheChipTheFirmwareErases) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  const auto m = transact(port, flash_reg::kMfpa, AccessRegisterTlv::kMethodQuery,
                          std::vector<std::uint8_t>(flash_reg::kMfpaBytes, 0));
  ASSERT_EQ(m.status, 0);
  const std::uint32_t caps = mad::get32(m.data.data(), 0x10);
  EXPECT_EQ(caps & 0xf, 1u);  // flash_num
  EXPECT_NE(caps & flash_reg::kBulk64kErase, 0u);
  EXPECT_EQ(caps & flash_reg::kBulk32kErase, 0u);
  EXPECT_EQ(1u << (mad::get32(m.data.data(), 0x18) & 0x3ff), dev->flash().chip().min_erase_size());
  std::vector<std::uint8_t> other(flash_reg::kMfpaBytes, 0);
  other[3] = 0x10;  // fs = 1: no second flash
  EXPECT_EQ(transact(port, flash_reg::kMfpa, AccessRegisterTlv::kMethodQuery, other).status,
            AccessRegisterTlv::kStatusBadParameter);
  EXPECT_EQ(transact(port, flash_reg::kMfmc, AccessRegisterTlv::kMethodQuery,
                     std::vector<std::uint8_t>(flash_reg::kMfmcBytes, 0)).status, 0);
  EXPECT_EQ(transact(port, flash_reg::kMfmc, AccessRegisterTlv::kMethodWrite,
                     std::vector<std::uint8_t>(flash_reg::kMfmcBytes, 0)).status,
            AccessRegisterTlv::kStatusMethodNotSupported);
}

TEST(FlashAccessRegisters, TheFirmwareErasesAndProgramsOnRequestWithNorSemantics) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  const auto before = dev->counters();
  const auto data = random_bytes(100, 3);
  ASSERT_EQ(mfba_write(port, kSpare + 4, data, 100), 0);
  EXPECT_EQ(flash_at(*dev, kSpare + 4, 100), data);
  std::vector<std::uint8_t> zeros_then_ff(8, 0xff);
  zeros_then_ff[0] = 0x0f;
  ASSERT_EQ(mfba_write(port, kSpare + 4, zeros_then_ff, 8), 0);  // NOR: bits only clear
  EXPECT_EQ(flash_at(*dev, kSpare + 4, 1)[0], data[0] & 0x0f);
  EXPECT_EQ(flash_at(*dev, kSpare + 5, 7), std::vector<std::uint8_t>(data.begin() + 1, data.begin() + 8));
  ASSERT_EQ(mfbe(port, kSpare), 0);
  EXPECT_EQ(flash_at(*dev, kSpare, 0x1000), std::vector<std::uint8_t>(0x1000, 0xff));

  ASSERT_EQ(mfba_write(port, kSpare + 0xf000, data, 100), 0);
  ASSERT_EQ(mfbe(port, kSpare, flash_reg::kBulk64kErase), 0);  // the whole 64 KiB block
  EXPECT_EQ(flash_at(*dev, kSpare + 0xf000, 100), std::vector<std::uint8_t>(100, 0xff));

  const auto after = dev->counters();
  EXPECT_EQ(after.gateway_commands, before.gateway_commands);
  EXPECT_EQ(after.firmware.flash_programs - before.firmware.flash_programs, 3u);
  EXPECT_EQ(after.firmware.flash_erases - before.firmware.flash_erases, 1u + 16u);
  EXPECT_EQ(after.flash.erases - before.flash.erases, 17u);
  EXPECT_EQ(after.firmware.gateway_conflicts, 0u);
}

TEST(FlashAccessRegisters, RefusesMisalignedOversizedAndOutsideRequests) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  const auto contents = dev->flash().contents();
  const std::vector<std::uint8_t> flash_before(contents.begin(), contents.end());
  const std::uint32_t size = static_cast<std::uint32_t>(dev->flash().chip().size);
  const std::uint8_t bad = AccessRegisterTlv::kStatusBadParameter;
  EXPECT_EQ(mfbe(port, kSpare + 0x100), bad);                               // not sector-aligned
  EXPECT_EQ(mfbe(port, kSpare + 0x1000, flash_reg::kBulk64kErase), bad);    // not 64 KiB-aligned
  EXPECT_EQ(mfbe(port, kSpare, flash_reg::kBulk32kErase), bad);             // no 32 KiB erase
  EXPECT_EQ(mfbe(port, size), bad);                                         // past the end
  const auto data = random_bytes(260, 4);
  EXPECT_EQ(mfba_write(port, kSpare, std::span(data).first(4), 0), bad);   // size 0
  EXPECT_EQ(mfba_write(port, kSpare, data, 257), bad);                     // over 256
  EXPECT_EQ(mfba_write(port, size - 4, std::span(data).first(8), 8), bad); // past the end
  EXPECT_EQ(mfba_write(port, kSpare, std::span(data).first(8), 64), bad);  // register shorter than its data
  EXPECT_EQ(transact(port, flash_reg::kMfbe, AccessRegisterTlv::kMethodQuery,
                     std::vector<std::uint8_t>(flash_reg::kMfbeBytes, 0)).status,
            AccessRegisterTlv::kStatusMethodNotSupported);
  const auto now = dev->flash().contents();
  EXPECT_TRUE(std::equal(now.begin(), now.end(), flash_before.begin(), flash_before.end()));
  EXPECT_EQ(dev->firmware_counters().flash_erases + dev->firmware_counters().flash_programs, 0u);

  sim::SimFaults protect;
  protect.flash_write_protected = true;  // the chip refuses: the firmware reports an internal error
  dev->set_faults(protect);
  EXPECT_EQ(mfbe(port, kSpare), AccessRegisterTlv::kStatusInternalError);
}

TEST(FirmwareFlashBus, WritesInTheBlocksThePortCarriesAndNeverTouchesTheGateway) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  auto icmd = FirmwareFlashBus::open(port);
  ASSERT_TRUE(icmd) << icmd.error().message();
  EXPECT_EQ((*icmd)->write_block_bytes(), 128u);  // mflash's cap over ICMD
  NarrowPort smp(port, 44);
  auto narrow = FirmwareFlashBus::open(smp);
  ASSERT_TRUE(narrow) << narrow.error().message();
  EXPECT_EQ((*narrow)->write_block_bytes(), 32u);

  const auto gateway = dev->counters().gateway_commands;
  ASSERT_TRUE((*narrow)->erase(kSpare));
  const auto data = random_bytes(200, 5);
  const std::uint64_t accesses = smp.accesses();
  ASSERT_TRUE((*narrow)->program(kSpare + 0x10, data));
  EXPECT_EQ(smp.accesses() - accesses, 7u);  // 16 to the first 32-byte boundary, 5 x 32, 24
  EXPECT_EQ(flash_at(*dev, kSpare + 0x10, 200), data);
  std::vector<std::uint8_t> back(200);
  ASSERT_TRUE((*icmd)->read(kSpare + 0x10, back));
  EXPECT_EQ(back, data);
  EXPECT_EQ(dev->counters().gateway_commands, gateway);

  // The FlashDriver's differential write over it: erase only where a bit must rise.
  FlashDriver driver = FlashDriver::over_bus(std::move(*icmd), true);
  EXPECT_FALSE(driver.through_gateway());
  const auto block = random_bytes(0x2000, 6);
  auto stats = driver.write_sectors_that_differ(kSpare, block);
  ASSERT_TRUE(stats) << stats.error().message();
  EXPECT_EQ(stats->sectors_erased, 2u);
  EXPECT_EQ(flash_at(*dev, kSpare, 0x2000), block);
  EXPECT_EQ(dev->counters().gateway_commands, gateway);
  EXPECT_EQ(dev->firmware_counters().gateway_conflicts, 0u);
}

// Over a power cut the firmware stops where the power went: what it erased and programmed
// stays, the rest is untouched, and the device answers nothing until it is powered again.
TEST(FirmwareFlashBus, APowerCutStopsTheFirmwareMidWrite) {
  auto dev = live_connectx4();
  sim::SimRegisterPort port(*dev);
  auto bus = FirmwareFlashBus::open(port);
  ASSERT_TRUE(bus) << bus.error().message();
  sim::SimFaults cut;
  cut.power_cut_after_ops = 2;  // the erase and the first 128-byte program
  dev->set_faults(cut);
  ASSERT_TRUE((*bus)->erase(kSpare));
  const auto data = random_bytes(256, 8);
  auto r = (*bus)->program(kSpare, data);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::Io) << r.error().message();
  dev->power_cycle();
  EXPECT_EQ(flash_at(*dev, kSpare, 128), std::vector<std::uint8_t>(data.begin(), data.begin() + 128));
  EXPECT_EQ(flash_at(*dev, kSpare + 128, 128), std::vector<std::uint8_t>(128, 0xff));
}

}  // namespace
}  // namespace openflint::test
