// FlashGateway + SimDevice: raw CR-space transactions, hw id, lock bit and semaphore semantics.
#include <gtest/gtest.h>

#include "devices/DeviceCatalog.h"
#include "devices/SpiOpcode.h"
#include "sim/SimDevice.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::sim {
namespace {

constexpr std::uint32_t kBusy = 1u << 30;
constexpr std::uint32_t kLock = 1u << 31;
constexpr std::uint32_t kRead = 1u << 0;
constexpr std::uint32_t kCmdPhase = 1u << 2;
constexpr std::uint32_t kAddrPhase = 1u << 3;
constexpr std::uint32_t kDataPhase = 1u << 4;
constexpr std::uint32_t kCsHold = 1u << 5;

std::uint32_t op(std::uint8_t opcode) { return std::uint32_t{opcode} << 16; }

std::unique_ptr<SimDevice> make(const char* model) {
  auto dev = SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

TEST(SimDevice, ReportsHwIdAtF0014) {
  auto cx3 = make("connectx3");
  auto id = cx3->read32(0xf0014);
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(*id & 0xffff, 0x1f5u);
  ASSERT_TRUE(cx3->write32(0xf0014, 0).has_value());
  EXPECT_EQ(*cx3->read32(0xf0014) & 0xffff, 0x1f5u);  // read-only
  auto sp2 = make("spectrum2");
  EXPECT_EQ(*sp2->read32(0xf0014) & 0xffff, 0x24eu);
}

TEST(SimDevice, RejectsGatewaysItDoesNotSimulate) {
  // Every catalog model is simulated now; a record whose flash only its firmware reaches is not.
  DeviceInfo firmware_only = **find_device_by_sim_model("switchx");
  firmware_only.flash_gateway = FlashGatewayInfo{.generation = GatewayGeneration::FirmwareMediated};
  auto sx = SimDevice::create(firmware_only);
  ASSERT_THAT(sx, test::FailsWith(ErrorCode::NotSupported));
  EXPECT_FALSE(SimDevice::create("no-such-model").has_value());
}

TEST(FlashGateway, JedecIdThroughGen5Registers) {
  auto dev = make("connectx4");
  ASSERT_TRUE(dev->write32(0xf0400, kLock | kBusy | kRead | kCmdPhase | kDataPhase | (2u << 8) |
                                        op(spi::kReadJedecId)).has_value());
  EXPECT_EQ(*dev->read32(0xf0400) & kBusy, 0u);
  EXPECT_EQ(*dev->read32(0xf0410) >> 8, 0x20ba18u);  // N25Q128A, big-endian in the dword
}

TEST(FlashGateway, ChainedPageProgramWithCsHold) {
  auto dev = make("connectx4");
  auto exec = [&](std::uint32_t cmd) { ASSERT_TRUE(dev->write32(0xf0400, kBusy | cmd).has_value()); };
  exec(kCmdPhase | op(spi::kWriteEnable));
  ASSERT_TRUE(dev->write32(0xf0404, 0x1000).has_value());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(dev->write32(0xf0410 + 4 * i, 0x01020304u * (i + 1)).has_value());
  exec(kCmdPhase | kAddrPhase | kDataPhase | kCsHold | (4u << 8) | op(spi::kPageProgram));
  EXPECT_EQ(dev->flash().counters().programs, 0u);  // CS still held: not committed yet
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(dev->write32(0xf0410 + 4 * i, 0xa0a0a0a0u).has_value());
  exec(kDataPhase | (4u << 8));  // data-only continuation, CS released
  EXPECT_EQ(dev->flash().counters().programs, 1u);
  const auto mem = dev->flash().contents();
  EXPECT_EQ(mem[0x1000], 0x01);
  EXPECT_EQ(mem[0x1003], 0x04);
  EXPECT_EQ(mem[0x1004], 0x02);
  EXPECT_EQ(mem[0x1010], 0xa0);
  EXPECT_EQ(mem[0x101f], 0xa0);
  EXPECT_EQ(mem[0x1020], 0xff);
}

TEST(FlashGateway, ConnectXNeedsFlashEnableBit) {
  auto dev = make("connectx3");
  const std::uint32_t jedec = kBusy | kRead | kCmdPhase | kDataPhase | (2u << 8) | op(spi::kReadJedecId);
  ASSERT_TRUE(dev->write32(0xf0400, jedec).has_value());
  EXPECT_EQ(*dev->read32(0xf0410), 0u);  // not driven without flash-enable
  ASSERT_TRUE(dev->write32(0xf0400, jedec | (1u << 13)).has_value());
  EXPECT_EQ(*dev->read32(0xf0410) >> 8, 0x20ba18u);
}

TEST(FlashGateway, CmdBit31IsSetAndTest) {
  auto dev = make("spectrum");
  EXPECT_EQ(*dev->read32(0xf0400) & kLock, 0u);     // free: this read takes it
  EXPECT_EQ(*dev->read32(0xf0400) & kLock, kLock);  // now held
  ASSERT_TRUE(dev->write32(0xf0400, 0).has_value());
  EXPECT_EQ(*dev->read32(0xf0400) & kLock, 0u);
}

TEST(FlashGateway, SemaphoreAtF03fcOnConnectX3) {
  auto dev = make("connectx3");
  EXPECT_EQ(*dev->read32(0xf03fc), 0u);
  EXPECT_EQ(*dev->read32(0xf03fc), 1u);
  EXPECT_EQ(*dev->read32(0xf0400) & kLock, 0u);  // CMD bit 31 is not the lock here
  EXPECT_EQ(*dev->read32(0xf0400) & kLock, 0u);
  ASSERT_TRUE(dev->write32(0xf03fc, 0).has_value());
  EXPECT_EQ(*dev->read32(0xf03fc), 0u);
}

TEST(FlashGateway, FailsTheNthCommand) {
  auto dev = make("connectx4");
  SimFaults faults;
  faults.fail_gateway_command = 2;
  dev->set_faults(faults);
  const std::uint32_t wren = kBusy | kCmdPhase | op(spi::kWriteEnable);
  EXPECT_TRUE(dev->write32(0xf0400, wren).has_value());
  auto second = dev->write32(0xf0400, wren);
  ASSERT_THAT(second, test::FailsWith(ErrorCode::Io));
  EXPECT_TRUE(dev->write32(0xf0400, wren).has_value());  // one-shot
}

}  // namespace
}  // namespace openflint::sim
