// sim/PciConfigSpace semantics, driven directly (no FUSE): header, capabilities, VSEC, window.
#include <gtest/gtest.h>

#include <array>

#include "flash/FlashDriver.h"
#include "sim/PciConfigSpace.h"
#include "sim/SimDevice.h"

namespace openflint {
namespace {

using sim::PciConfigSpace;
using sim::SimDevice;

std::unique_ptr<SimDevice> make(const char* model) {
  auto dev = SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

std::uint32_t rd(PciConfigSpace& cfg, std::uint32_t off) {
  auto v = cfg.read32(off);
  EXPECT_TRUE(v.has_value()) << v.error().message();
  return v ? *v : 0;
}

void wr(PciConfigSpace& cfg, std::uint32_t off, std::uint32_t value) {
  auto r = cfg.write32(off, value);
  EXPECT_TRUE(r.has_value()) << r.error().message();
}

// The capability ids met walking from 0x34, with the offset of the vendor-specific one.
std::vector<std::uint8_t> walk_caps(PciConfigSpace& cfg, std::uint32_t* vsec = nullptr) {
  std::vector<std::uint8_t> ids;
  std::uint32_t ptr = rd(cfg, 0x34) & 0xfc;
  while (ptr != 0 && ids.size() < 48) {
    const std::uint32_t head = rd(cfg, ptr);
    ids.push_back(static_cast<std::uint8_t>(head));
    if ((head & 0xff) == 0x09 && (head >> 24) == 0 && vsec != nullptr) *vsec = ptr;
    ptr = (head >> 8) & 0xfc;
  }
  return ids;
}

TEST(PciConfigSpace, HeaderOfAConnectX4) {
  auto dev = make("connectx4");
  PciConfigSpace cfg(*dev);
  ASSERT_TRUE(dev->boot_state().recovery);  // an erased flash: the recovery id shows
  EXPECT_EQ(rd(cfg, 0x00), 0x15b3u | (0x209u << 16));
  EXPECT_EQ(rd(cfg, 0x08) >> 8, 0x020000u);  // network controller
  EXPECT_EQ(rd(cfg, 0x0c) & 0x00ff0000, 0u);  // header type 0
  EXPECT_NE(rd(cfg, 0x04) & (0x10u << 16), 0u);  // status: capability list
  EXPECT_EQ(rd(cfg, 0x2c), 0x15b3u | (4115u << 16));
  std::uint32_t vsec = 0;
  EXPECT_EQ(walk_caps(cfg, &vsec), (std::vector<std::uint8_t>{0x01, 0x10, 0x09, 0x03}));  // ..., VSEC, VPD
  EXPECT_EQ(vsec, PciConfigSpace::kVsecOffset);
  // Byte reads see the little-endian bus order.
  std::array<std::uint8_t, 4> bytes{};
  ASSERT_TRUE(cfg.read(0, bytes).has_value());
  EXPECT_EQ(bytes, (std::array<std::uint8_t, 4>{0xb3, 0x15, 0x09, 0x02}));
}

TEST(PciConfigSpace, SwitchClassAndWindowDevicesHaveNoVsec) {
  auto sw = make("spectrum");
  PciConfigSpace sw_cfg(*sw);
  EXPECT_EQ(rd(sw_cfg, 0x08) >> 8, 0x028000u);
  EXPECT_EQ(walk_caps(sw_cfg), (std::vector<std::uint8_t>{0x01, 0x10, 0x09}));  // a switch has no VPD
  auto cx3 = make("connectx3");
  PciConfigSpace cfg(*cx3);
  EXPECT_EQ(cfg.gateway(), PciConfigGateway::AddressWindow);
  EXPECT_EQ(walk_caps(cfg), (std::vector<std::uint8_t>{0x01, 0x10, 0x03}));  // PM, PCIe, VPD
}

// The VPD capability: a read cycle (flag 0 written with the address) completes with the flag set
// and 4 VPD bytes in the data register; a write cycle is ignored and completes with the flag clear.
TEST(PciConfigSpace, VpdCapabilityReadsTheBoardsVpd) {
  auto dev = make("connectx4");
  PciConfigSpace cfg(*dev);
  const std::uint32_t cap = PciConfigSpace::kVpdOffset;
  ASSERT_GE(cfg.vpd().size(), 8u);
  for (std::uint32_t address : {0u, 4u}) {
    ASSERT_TRUE(cfg.write32(cap, 0x03 | address << 16));
    EXPECT_EQ(rd(cfg, cap), 0x03 | address << 16 | 0x80000000u);
    std::uint32_t expected = 0;
    for (std::uint32_t i = 0; i < 4; ++i) expected |= std::uint32_t{cfg.vpd()[address + i]} << (8 * i);
    EXPECT_EQ(rd(cfg, cap + 4), expected);
  }
  ASSERT_TRUE(cfg.write32(cap + 4, 0xdeadbeef));
  ASSERT_TRUE(cfg.write32(cap, 0x80000003u));  // a write cycle at address 0
  EXPECT_EQ(rd(cfg, cap), 0x03u);                 // done: the flag cleared
  ASSERT_TRUE(cfg.write32(cap, 0x03));
  EXPECT_EQ(rd(cfg, cap + 4) & 0xff, 0x82u);      // still the identifier tag: write-protected
}

TEST(PciConfigSpace, Bar0SizesLikeHardware) {
  auto dev = make("connectx4");
  PciConfigSpace cfg(*dev, {.bar0_base = 0xd0000000, .bar0_size = 0x2000000});
  EXPECT_EQ(rd(cfg, 0x10), 0xd000000cu);
  wr(cfg, 0x10, 0xffffffff);
  EXPECT_EQ(rd(cfg, 0x10), 0xfe00000cu);  // ~(32 MiB - 1), flags kept
  wr(cfg, 0x10, 0xd0000000);
  EXPECT_EQ(rd(cfg, 0x10), 0xd000000cu);
  wr(cfg, 0x00, 0);  // read-only
  EXPECT_EQ(rd(cfg, 0x00) & 0xffff, 0x15b3u);
}

TEST(PciConfigSpace, RecoveryModeShowsTheRecoveryId) {
  auto dev = make("connectx3");  // an erased flash: the boot ROM finds nothing
  ASSERT_TRUE(dev->boot_state().recovery);
  PciConfigSpace cfg(*dev);
  EXPECT_EQ(rd(cfg, 0x00) >> 16, dev->info().pci_recovery_id);
}

class Vsec : public ::testing::Test {
 protected:
  static constexpr std::uint32_t kBase = PciConfigSpace::kVsecOffset;
  std::unique_ptr<SimDevice> dev_ = make("connectx4");
  PciConfigSpace cfg_{*dev_};
};

TEST_F(Vsec, CounterIncrementsOnEveryRead) {
  const std::uint32_t a = rd(cfg_, kBase + kVsecCounter);
  EXPECT_EQ(rd(cfg_, kBase + kVsecCounter), a + 1);
  std::array<std::uint8_t, 1> one{};
  ASSERT_TRUE(cfg_.read(kBase + kVsecCounter + 1, one).has_value());  // a byte read is a dword read
  EXPECT_EQ(rd(cfg_, kBase + kVsecCounter), a + 3);
}

TEST_F(Vsec, SemaphoreOwnedByTheFirstTicketReleasedByZero) {
  EXPECT_EQ(rd(cfg_, kBase + kVsecSemaphore), 0u);
  wr(cfg_, kBase + kVsecSemaphore, 7);
  EXPECT_EQ(rd(cfg_, kBase + kVsecSemaphore), 7u);
  wr(cfg_, kBase + kVsecSemaphore, 9);  // held: the second ticket loses
  EXPECT_EQ(rd(cfg_, kBase + kVsecSemaphore), 7u);
  wr(cfg_, kBase + kVsecSemaphore, 0);
  EXPECT_EQ(rd(cfg_, kBase + kVsecSemaphore), 0u);
  wr(cfg_, kBase + kVsecSemaphore, 9);
  EXPECT_EQ(rd(cfg_, kBase + kVsecSemaphore), 9u);
}

TEST_F(Vsec, OnlySupportedSpacesEcho) {
  EXPECT_EQ(rd(cfg_, kBase + kVsecCtrl) >> 29, 0u);  // nothing selected yet
  wr(cfg_, kBase + kVsecCtrl, 2);
  EXPECT_EQ(rd(cfg_, kBase + kVsecCtrl) & 0xffff, 2u);
  EXPECT_NE(rd(cfg_, kBase + kVsecCtrl) >> 29, 0u);
  wr(cfg_, kBase + kVsecCtrl, 0x7);  // SCAN_CRSPACE: not simulated
  EXPECT_EQ(rd(cfg_, kBase + kVsecCtrl) & 0xffff, 2u);
  wr(cfg_, kBase + kVsecCtrl, 0xa);
  EXPECT_EQ(rd(cfg_, kBase + kVsecCtrl) & 0xffff, 0xau);
}

TEST_F(Vsec, ReadSetsTheFlagWriteClearsIt) {
  wr(cfg_, kBase + kVsecCtrl, 2);
  wr(cfg_, kBase + kVsecAddr, kHwIdAddr);
  EXPECT_EQ(rd(cfg_, kBase + kVsecAddr), kHwIdAddr | kVsecFlagBit);
  EXPECT_EQ(rd(cfg_, kBase + kVsecData) & 0xffff, 0x209u);

  const std::uint32_t scratch = 0x100;
  wr(cfg_, kBase + kVsecData, 0xcafe1234);
  wr(cfg_, kBase + kVsecAddr, scratch | kVsecFlagBit);
  EXPECT_EQ(rd(cfg_, kBase + kVsecAddr), scratch);
  EXPECT_EQ(cfg_.gateway_transactions(), 2u);
  EXPECT_EQ(dev_->counters().register_reads, 1u);
  EXPECT_EQ(dev_->counters().register_writes, 1u);
  EXPECT_EQ(*dev_->read32(scratch), 0xcafe1234u);
}

TEST_F(Vsec, SemaphoreSpaceIsSeparateStorage) {
  wr(cfg_, kBase + kVsecCtrl, 0xa);
  wr(cfg_, kBase + kVsecData, 55);
  wr(cfg_, kBase + kVsecAddr, 0x100 | kVsecFlagBit);
  wr(cfg_, kBase + kVsecCtrl, 2);
  wr(cfg_, kBase + kVsecAddr, 0x100);
  EXPECT_EQ(rd(cfg_, kBase + kVsecData), 0u);  // CR-space 0x100 untouched
  wr(cfg_, kBase + kVsecCtrl, 0xa);
  wr(cfg_, kBase + kVsecAddr, 0x100);
  EXPECT_EQ(rd(cfg_, kBase + kVsecData), 55u);
}

TEST_F(Vsec, PoweredOffReadsAllOnesWithASyndrome) {
  wr(cfg_, kBase + kVsecCtrl, 2);
  dev_->set_faults({.power_cut_after_ops = 1});
  {
    auto flash = FlashDriver::open(*dev_, dev_->info().flash_gateway);
    ASSERT_TRUE(flash.has_value()) << flash.error().message();
    (void)flash->erase_sector(0);  // the power goes with this erase
  }
  ASSERT_FALSE(dev_->powered());
  wr(cfg_, kBase + kVsecAddr, kHwIdAddr);
  const std::uint32_t addr = rd(cfg_, kBase + kVsecAddr);
  EXPECT_NE(addr & kVsecFlagBit, 0u);  // the command completes...
  EXPECT_NE(addr & (1u << 30), 0u);    // ...with a syndrome
  EXPECT_EQ(rd(cfg_, kBase + kVsecData), 0xffffffffu);
  dev_->power_cycle();
  wr(cfg_, kBase + kVsecAddr, kHwIdAddr);
  EXPECT_EQ(rd(cfg_, kBase + kVsecAddr) & (1u << 30), 0u);
  EXPECT_EQ(rd(cfg_, kBase + kVsecData) & 0xffff, 0x209u);
}

TEST(PciWindow, AddressThenData) {
  auto dev = make("connectx3");
  PciConfigSpace cfg(*dev);
  wr(cfg, kPciWindowAddrOffset, kHwIdAddr);
  EXPECT_EQ(rd(cfg, kPciWindowAddrOffset), kHwIdAddr);
  EXPECT_EQ(rd(cfg, kPciWindowDataOffset) & 0xffff, 0x1f5u);
  wr(cfg, kPciWindowAddrOffset, 0x200);
  wr(cfg, kPciWindowDataOffset, 0x12345678);
  EXPECT_EQ(*dev->read32(0x200), 0x12345678u);
  EXPECT_EQ(rd(cfg, kPciWindowDataOffset), 0x12345678u);
  EXPECT_EQ(cfg.gateway_transactions(), 3u);
}

TEST(PciConfigSpace, PartialWritesMergeAndRangesAreChecked) {
  auto dev = make("connectx4");
  PciConfigSpace cfg(*dev);
  const std::uint32_t base = PciConfigSpace::kVsecOffset;
  const std::array<std::uint8_t, 2> low{0x02, 0x00};
  ASSERT_TRUE(cfg.write(base + kVsecCtrl, low).has_value());  // a 16-bit CTRL write selects
  EXPECT_EQ(rd(cfg, base + kVsecCtrl) & 0xffff, 2u);
  std::array<std::uint8_t, 8> buf{};
  EXPECT_EQ(cfg.read(4092, buf).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(cfg.write32(4096, 0).error().code(), ErrorCode::InvalidArgument);
  std::array<std::uint8_t, 4096> all{};
  EXPECT_TRUE(cfg.read(0, all).has_value());
}

}  // namespace
}  // namespace openflint
