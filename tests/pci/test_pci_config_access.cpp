// PciConfigAccess over a FuseSysfs tree: hw id, blocks, the flash through config space, busy.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>

#include "flash/FlashDriver.h"
#include "fwops/DeviceFlash.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "sim/PciConfigSpace.h"
#include "tests/pci/PciSysfsFixture.h"

namespace openflint {
namespace {

using test::PciSysfsFixture;

class PciConfig : public PciSysfsFixture {
 protected:
  std::unique_ptr<PciConfigAccess> open(const PciAddress& a, const PciConfigOptions& o = {}) {
    auto access = PciConfigAccess::open(a, root(), o);
    EXPECT_TRUE(access.has_value()) << access.error().message();
    return access ? std::move(access).value() : nullptr;
  }
  // Writes a dword straight into the served config file (another agent, e.g. setpci).
  void poke_config(const PciAddress& a, std::uint32_t offset, std::uint32_t value) {
    const auto path = root() / "devices" / a.to_string() / "config";
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(::pwrite(fd, &value, 4, offset), 4);  // little-endian host: the bus order
    ::close(fd);
  }
};

TEST_F(PciConfig, ServesTheSysfsAttributes) {
  EXPECT_EQ(attribute(kCx4, "vendor"), "0x15b3\n");
  char device[16];
  std::snprintf(device, sizeof device, "0x%04x\n", cx4_->pci_device_id());
  EXPECT_EQ(attribute(kCx4, "device"), device);
  EXPECT_EQ(attribute(kCx4, "class"), "0x020000\n");
  const std::string resource = attribute(kCx4, "resource");
  EXPECT_EQ(std::count(resource.begin(), resource.end(), '\n'), 17);
  EXPECT_EQ(resource.substr(0, 57), "0x00000000e0000000 0x00000000e3ffffff 0x000000000014220c\n");
  EXPECT_EQ(attribute(kCx3, "resource").substr(0, 37), "0x00000000e4000000 0x00000000e40fffff");
  EXPECT_EQ(std::filesystem::file_size(root() / "devices" / kCx4.to_string() / "config"), 4096u);
  EXPECT_FALSE(std::filesystem::exists(root() / "devices" / kCx4.to_string() / "resource0"));
}

TEST_F(PciConfig, ReadsTheHwIdThroughTheVsec) {
  auto access = open(kCx4);
  ASSERT_TRUE(access);
  EXPECT_EQ(access->gateway(), PciConfigGateway::Vsec);
  EXPECT_EQ(access->vsec_offset(), sim::PciConfigSpace::kVsecOffset);
  auto id = access->read32(kHwIdAddr);
  ASSERT_TRUE(id.has_value()) << id.error().message();
  EXPECT_EQ(*id & 0xffff, 0x209u);
  EXPECT_EQ(access->counters().transactions, 1u);
  EXPECT_EQ(access->counters().semaphore_holds, 1u);
  EXPECT_EQ(fs_->gateway_transactions(0), 1u);
  EXPECT_EQ(cx4_->counters().register_reads, 1u);
}

TEST_F(PciConfig, ReadsTheHwIdThroughTheWindow) {
  auto access = open(kCx3);
  ASSERT_TRUE(access);
  EXPECT_EQ(access->gateway(), PciConfigGateway::AddressWindow);
  auto id = access->read32(kHwIdAddr);
  ASSERT_TRUE(id.has_value()) << id.error().message();
  EXPECT_EQ(*id & 0xffff, 0x1f5u);
  EXPECT_EQ(fs_->gateway_transactions(1), 1u);
}

TEST_F(PciConfig, BlocksMoveUnderOneSemaphoreHold) {
  auto access = open(kCx4);
  ASSERT_TRUE(access);
  const std::vector<std::uint32_t> values{1, 0xdeadbeef, 3, 0x80000000, 5, 6, 7, 8};
  ASSERT_TRUE(access->write_block(0x1000, values).has_value());
  std::vector<std::uint32_t> back(values.size());
  ASSERT_TRUE(access->read_block(0x1000, back).has_value());
  EXPECT_EQ(back, values);
  EXPECT_EQ(*cx4_->read32(0x1004), 0xdeadbeefu);
  EXPECT_EQ(access->counters().semaphore_holds, 2u);
  EXPECT_EQ(access->counters().transactions, 16u);
  const RegisterWrite sequence[] = {{0x2000, 1}, {0x1000, 2}, {0x2004, 3}};
  ASSERT_TRUE(access->write_sequence(sequence).has_value());
  EXPECT_EQ(access->counters().semaphore_holds, 3u);
  EXPECT_EQ(*cx4_->read32(0x1000), 2u);
  EXPECT_EQ(*cx4_->read32(0x2004), 3u);
  EXPECT_EQ(access->read32(0x1002).error().code(), ErrorCode::InvalidArgument);
}

class PciFlash : public PciConfig, public ::testing::WithParamInterface<bool> {};

TEST_P(PciFlash, DrivesTheFlashThroughConfigSpace) {
  sim::SimDevice& dev = GetParam() ? *cx4_ : *cx3_;
  const PciAddress& address = GetParam() ? kCx4 : kCx3;
  const auto pattern = test::random_bytes(4096, 11);
  std::vector<std::uint8_t> image(dev.flash().contents().size(), 0xff);
  std::copy(pattern.begin(), pattern.end(), image.begin());
  ASSERT_TRUE(dev.flash().set_contents(image).has_value());
  auto access = open(address);
  ASSERT_TRUE(access);
  FlashTimeouts timeouts;
  timeouts.lock = std::chrono::milliseconds(500);
  {
    auto flash = FlashDriver::open(*access, dev.info().flash_gateway, timeouts);
    ASSERT_TRUE(flash.has_value()) << flash.error().message();
    EXPECT_EQ(flash->jedec_id(), dev.flash().chip().jedec_id);
    auto block = flash->read(0, 4096);
    ASSERT_TRUE(block.has_value()) << block.error().message();
    EXPECT_EQ(*block, pattern);
    const std::vector<std::uint8_t> bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    ASSERT_TRUE(flash->erase_sector(flash->sector_size()).has_value());
    ASSERT_TRUE(flash->program(flash->sector_size() + 5, bytes).has_value());
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), dev.flash().contents().begin() + flash->sector_size() + 5));
  }
  EXPECT_GT(access->counters().transactions, 1024u);  // 4 KiB read: 256 x (ADDR, CMD, poll, 4 DATA)
}

INSTANTIATE_TEST_SUITE_P(Gateways, PciFlash, ::testing::Values(true, false),
                         [](const auto& param_info) { return param_info.param ? "Vsec" : "Window"; });

TEST_F(PciConfig, AnotherHolderMakesItBusyInBoundedTime) {
  const std::uint32_t sem = sim::PciConfigSpace::kVsecOffset + kVsecSemaphore;
  poke_config(kCx4, sem, 0x4242);
  auto access = open(kCx4, {.semaphore_attempts = 20, .semaphore_interval = std::chrono::milliseconds(1)});
  ASSERT_TRUE(access);
  const auto start = std::chrono::steady_clock::now();
  auto id = access->read32(kHwIdAddr);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(id.has_value());
  EXPECT_EQ(id.error().code(), ErrorCode::Busy);
  EXPECT_NE(id.error().message().find(kCx4.to_string()), std::string::npos) << id.error().message();
  EXPECT_LT(elapsed, std::chrono::seconds(1));
  EXPECT_EQ(cx4_->counters().register_reads, 0u);
  poke_config(kCx4, sem, 0);  // the holder lets go
  EXPECT_TRUE(access->read32(kHwIdAddr).has_value());
}

TEST_F(PciConfig, ReleasesTheSemaphoreOnErrors) {
  auto access = open(kCx4);
  ASSERT_TRUE(access);
  cx4_->set_faults({.power_cut_after_ops = 1});
  {
    auto flash = FlashDriver::open(*cx4_, cx4_->info().flash_gateway);
    ASSERT_TRUE(flash.has_value());
    (void)flash->erase_sector(0);  // the power goes with this erase
  }
  auto id = access->read32(kHwIdAddr);
  ASSERT_FALSE(id.has_value());
  EXPECT_EQ(id.error().code(), ErrorCode::Io) << id.error().message();
  cx4_->power_cycle();
  auto again = access->read32(kHwIdAddr);  // not Busy: the failed call let go of the semaphore
  ASSERT_TRUE(again.has_value()) << again.error().message();
  EXPECT_EQ(*again & 0xffff, 0x209u);
}

// Behind the 0x58 window a powered-off device reads all ones and has no syndrome to report: the
// BUSY wait ends after a run of all-ones polls, without waiting out FlashTimeouts::gateway_busy.
TEST_F(PciConfig, AWindowDeviceThatStopsAnsweringFailsFast) {
  auto access = open(kCx3);
  ASSERT_TRUE(access);
  auto flash = FlashDriver::open(*access, cx3_->info().flash_gateway);
  ASSERT_TRUE(flash.has_value()) << flash.error().message();
  cx3_->set_faults({.power_cut_after_ops = 1});
  const auto start = std::chrono::steady_clock::now();
  auto erased = flash->erase_sector(0);  // the power goes with this erase
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(erased.has_value());
  EXPECT_EQ(erased.error().code(), ErrorCode::Timeout) << erased.error().message();
  EXPECT_NE(erased.error().message().find("does not answer"), std::string::npos) << erased.error().message();
  EXPECT_LT(elapsed, FlashTimeouts{}.gateway_busy / 2);
}

// Opening a device's flash finishes an interrupted journaled write; with none pending it reads
// the journal header only, not the whole 4 KiB scratch sector (~2300 gateway dwords here).
TEST_F(PciConfig, OpeningTheFlashReadsOnlyTheJournalHeader) {
  auto access = open(kCx4);
  ASSERT_TRUE(access);
  auto flash = open_device_flash(*access, cx4_->info(), "connectx4");
  ASSERT_TRUE(flash.has_value()) << flash.error().message();
  EXPECT_LT(access->counters().transactions, 100u);
}

// Every VSEC access takes the semaphore and checks CR_SPACE is selected: once selected, a
// read32 writes only the ticket, ADDR and the release (no CTRL write, no CTRL read-back).
TEST_F(PciConfig, SelectedSpaceIsNotWrittenAgain) {
  auto access = open(kCx4);
  ASSERT_TRUE(access);
  ASSERT_TRUE(access->read32(kHwIdAddr).has_value());  // selects CR_SPACE
  const PciConfigCounters before = access->counters();
  ASSERT_TRUE(access->read32(kHwIdAddr).has_value());
  const PciConfigCounters after = access->counters();
  EXPECT_EQ(after.config_writes - before.config_writes, 3u);
  EXPECT_EQ(after.semaphore_holds - before.semaphore_holds, 1u);
}

// A flash gateway command and its first BUSY poll (here with the read data) share one hold.
TEST_F(PciConfig, AFlashTransactionTakesOneSemaphoreHold) {
  auto access = open(kCx4);
  ASSERT_TRUE(access);
  auto flash = FlashDriver::open(*access, cx4_->info().flash_gateway);
  ASSERT_TRUE(flash.has_value()) << flash.error().message();
  const std::uint64_t holds = access->counters().semaphore_holds;
  auto block = flash->read(0, 16);
  ASSERT_TRUE(block.has_value()) << block.error().message();
  EXPECT_EQ(access->counters().semaphore_holds - holds, 1u);
  EXPECT_TRUE(std::equal(block->begin(), block->end(), cx4_->flash().contents().begin()));
}

TEST_F(PciConfig, MissingDevicesAreNotFound) {
  auto access = PciConfigAccess::open(PciAddress{0, 0x42, 0, 0}, root());
  ASSERT_FALSE(access.has_value());
  EXPECT_EQ(access.error().code(), ErrorCode::NotFound);
  auto bad_root = PciConfigAccess::open(kCx4, root() / "nowhere");
  EXPECT_EQ(bad_root.error().code(), ErrorCode::NotFound);
}

TEST(PciAddress, ParsesAndPrints) {
  auto a = parse_pci_address("0000:03:00.1");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->to_string(), "0000:03:00.1");
  auto b = parse_pci_address("81:1f.7");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ((PciAddress{0, 0x81, 0x1f, 7}), *b);
  for (const char* bad : {"", "03:00", "03:20.0", "03:00.8", "x:03:00.0", "0000:03:00.0 "}) {
    EXPECT_EQ(parse_pci_address(bad).error().code(), ErrorCode::InvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace openflint
