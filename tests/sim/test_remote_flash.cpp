// Flash writes and current-copy reads over a costly_access() transport (the in-band policy), checked
// on simulated devices through a round-trip-counting RegisterAccess.
#include <gtest/gtest.h>

#include <filesystem>

#include "flash/FlashDriver.h"
#include "fwops/burn/FailsafeBurner.h"
#include "fwops/edit/FlashImageReader.h"
#include "image/FirmwareImage.h"
#include "tests/sim/RemoteSim.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::test {
namespace {

using sim::SimDevice;

std::unique_ptr<SimDevice> make(const char* model) {
  auto dev = SimDevice::create(model);
  EXPECT_TRUE(dev.has_value()) << dev.error().message();
  return std::move(dev).value();
}

FlashDriver open(RegisterAccess& access, const SimDevice& dev) {
  auto driver = FlashDriver::open(access, dev.info().flash_gateway);
  EXPECT_TRUE(driver.has_value()) << driver.error().message();
  return std::move(driver).value();
}

std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) { return random_bytes(n, seed); }

std::vector<std::uint8_t> flash_bytes(FlashDriver& driver, std::uint64_t address, std::uint64_t length) {
  auto bytes = driver.read(address, length);
  EXPECT_TRUE(bytes.has_value()) << bytes.error().message();
  return bytes ? *bytes : std::vector<std::uint8_t>{};
}

std::uint64_t driver_size(SimDevice& dev) { return open(dev, dev).size(); }

void put(SimDevice& dev, std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
  FlashDriver local = open(dev, dev);
  auto r = local.write_sectors_that_differ(address, bytes);
  ASSERT_THAT(r, IsOk());
}

// Overwrites 8 sectors of old data with new data whose first bytes differ, once over a remote
// transport and once over a local one.
TEST(RemoteFlashWrite, DifferingSectorsAreErasedWithoutBeingReadFirst) {
  const auto old_data = pattern(8 * 4096, 1);
  const auto new_data = pattern(8 * 4096, 2);
  std::uint64_t trips[2] = {};
  for (const bool remote : {true, false}) {
    auto dev = make("connectx3");
    put(*dev, 0, old_data);
    RemoteSim access(*dev, remote);
    FlashDriver driver = open(access, *dev);
    access.round_trips = 0;
    auto stats = driver.write_sectors_that_differ(0, new_data);
    ASSERT_THAT(stats, IsOk());
    trips[remote ? 0 : 1] = access.round_trips;
    EXPECT_EQ(stats->sectors_erased, 8u);
    EXPECT_EQ(stats->sectors_probed, remote ? 8u : 0u);
    EXPECT_EQ(flash_bytes(driver, 0, new_data.size()), new_data) << (remote ? "remote" : "local");
  }
  // Local: read 4 KiB + program + verify per sector; remote skips the read (one third).
  EXPECT_LT(trips[0] * 10, trips[1] * 8) << "remote " << trips[0] << " vs local " << trips[1];
}

TEST(RemoteFlashWrite, EqualHeadStillFindsALaterDifference) {
  auto dev = make("connectx3");
  const auto old_data = pattern(4096, 3);
  put(*dev, 0x2000, old_data);
  auto new_data = old_data;
  new_data[0x800] = static_cast<std::uint8_t>(~old_data[0x800]);  // needs 0 -> 1 bits
  RemoteSim access(*dev, true);
  FlashDriver driver = open(access, *dev);
  auto stats = driver.write_sectors_that_differ(0x2000, new_data);
  ASSERT_THAT(stats, IsOk());
  EXPECT_EQ(stats->sectors_probed, 0u);  // the head matched: the sector was read whole
  EXPECT_EQ(stats->sectors_erased, 1u);
  EXPECT_EQ(flash_bytes(driver, 0x2000, 4096), new_data);
}

TEST(RemoteFlashWrite, UnchangedSectorsAreLeftAlone) {
  auto dev = make("connectx3");
  const auto data = pattern(3 * 4096, 4);
  put(*dev, 0, data);
  const auto before = dev->counters().flash;
  RemoteSim access(*dev, true);
  FlashDriver driver = open(access, *dev);
  auto stats = driver.write_sectors_that_differ(0, data);
  ASSERT_THAT(stats, IsOk());
  EXPECT_EQ(stats->sectors_unchanged, 3u);
  EXPECT_EQ(dev->counters().flash.erases, before.erases);
  EXPECT_EQ(dev->counters().flash.programs, before.programs);
}

TEST(RemoteFlashWrite, SmallRangeIsProgrammedInPlaceAndCheap) {
  auto dev = make("connectx3");
  auto data = pattern(4096, 5);
  std::fill_n(data.begin(), 16, 0xff);  // an erased magic, as a failsafe burn leaves it
  put(*dev, 0x10000, data);
  const std::vector<std::uint8_t> magic{0x4d, 0x54, 0x46, 0x57, 0x8c, 0xdf, 0xd0, 0x00,
                                        0xde, 0xad, 0x92, 0x70, 0x41, 0x54, 0xbe, 0xef};
  RemoteSim access(*dev, true);
  FlashDriver driver = open(access, *dev);
  access.round_trips = 0;
  auto stats = driver.write_sectors_that_differ(0x10000, magic);
  ASSERT_THAT(stats, IsOk());
  EXPECT_EQ(stats->sectors_erased, 0u);
  EXPECT_EQ(stats->sectors_program_only, 1u);
  EXPECT_LT(access.round_trips, 20u);  // not the 512 of reading and verifying the whole sector
  std::copy(magic.begin(), magic.end(), data.begin());
  EXPECT_EQ(flash_bytes(driver, 0x10000, 4096), data);
}

TEST(RemoteFlashWrite, RangeNeedingAnEraseKeepsTheRestOfItsSectors) {
  auto dev = make("connectx3");
  const auto base = pattern(8192, 6);
  put(*dev, 0, base);
  const std::vector<std::uint8_t> patch(100, 0xa5);
  RemoteSim access(*dev, true);
  FlashDriver driver = open(access, *dev);
  auto stats = driver.write_sectors_that_differ(0x0fd0, patch);
  ASSERT_THAT(stats, IsOk());
  EXPECT_EQ(stats->sectors_total, 2u);
  auto expected = base;
  std::copy(patch.begin(), patch.end(), expected.begin() + 0x0fd0);
  EXPECT_EQ(flash_bytes(driver, 0, 8192), expected);
}

std::optional<std::vector<std::uint8_t>> sample(const std::string& name) {
  const auto path = std::filesystem::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / name;
  if (!std::filesystem::exists(path)) return std::nullopt;
  return read_file(path);
}

struct ScopeCase {
  const char* model;
  const char* image;
};

class CurrentCopyScope : public ::testing::TestWithParam<ScopeCase> {};

// A query of the current copy reads its tables and info sections only, and reports what a
// whole read reports; with a second copy header on flash it reads the copies whole.
TEST_P(CurrentCopyScope, QueryReadsAFractionAndAgreesWithWhole) {
  const auto image = sample(GetParam().image);
  if (!image) GTEST_SKIP() << GetParam().image << " was not built (spectrum2 samples need ../shared)";
  auto dev = make(GetParam().model);
  put(*dev, 0, *image);
  RemoteSim access(*dev, true);
  FlashDriver driver = open(access, *dev);
  auto whole = read_current_image(access, dev->info(), driver, CopyScope::Whole);
  auto quick = read_current_image(access, dev->info(), driver, CopyScope::Query);
  ASSERT_THAT(whole, IsOk());
  ASSERT_THAT(quick, IsOk());
  ASSERT_TRUE(whole->query && quick->query);
  const auto expected = query_image(*image);
  ASSERT_THAT(expected, IsOk());
  for (const auto* q : {&*whole->query, &*quick->query}) {
    EXPECT_EQ(q->fw_version, expected->fw_version);
    EXPECT_EQ(q->psid, expected->psid);
    EXPECT_EQ(q->release_date, expected->release_date);
    EXPECT_EQ(q->base_guid.has_value(), expected->base_guid.has_value());
    if (q->base_guid && expected->base_guid) {
      EXPECT_EQ(q->base_guid->base, expected->base_guid->base);
    }
  }
  EXPECT_LT(quick->bytes_read * 4, whole->bytes_read)
      << "query read " << quick->bytes_read << " bytes, whole " << whole->bytes_read;
}

TEST_P(CurrentCopyScope, TwoCopyHeadersAreReadWholeToChoose) {
  const auto image = sample(GetParam().image);
  if (!image) GTEST_SKIP() << GetParam().image << " was not built (spectrum2 samples need ../shared)";
  auto dev = make(GetParam().model);
  put(*dev, 0, *image);
  const std::uint64_t size = driver_size(*dev);
  const std::uint64_t second = size / 2;  // a candidate start: a copy there has a header too
  const auto copy = query_image(*image);
  ASSERT_TRUE(copy.has_value());
  if (copy->image_size == 0 || second + copy->image_size > size || copy->image_size > second)
    GTEST_SKIP() << "image does not fit twice";
  put(*dev, second, std::vector<std::uint8_t>(image->begin(), image->begin() + static_cast<std::ptrdiff_t>(copy->image_size)));
  RemoteSim access(*dev, true);
  FlashDriver driver = open(access, *dev);
  auto quick = read_current_image(access, dev->info(), driver, CopyScope::Query);
  ASSERT_THAT(quick, IsOk());
  ASSERT_TRUE(quick->query.has_value());
  EXPECT_GE(quick->bytes_read, copy->image_size / 2) << "the copy was not verified";
}

INSTANTIATE_TEST_SUITE_P(Samples, CurrentCopyScope,
                         ::testing::Values(ScopeCase{"connectx3", "connectx3-old.bin"},
                                           ScopeCase{"connectx4", "connectx4-old.bin"},
                                           ScopeCase{"spectrum", "spectrum-old.bin"},
                                           ScopeCase{"spectrum2", "spectrum2-old.bin"}),
                         [](const auto& param_info) { return std::string(param_info.param.model); });

TEST(RemoteBurn, FailsafeBurnOverRemoteAccessBootsTheNewImage) {
  const auto old_image = sample("connectx3-old.bin");
  const auto new_image = sample("connectx3-new.bin");
  ASSERT_TRUE(old_image && new_image) << "firmware samples are built with the project";
  std::uint64_t trips[2] = {};
  for (const bool remote : {true, false}) {
    auto dev = make("connectx3");
    put(*dev, 0, *old_image);
    dev->reset();
    RemoteSim access(*dev, remote);
    auto report = burn_image(access, dev->info(), *new_image, BurnOptions{});
    ASSERT_THAT(report, IsOk());
    trips[remote ? 0 : 1] = access.round_trips;
    EXPECT_EQ(report->sectors_probed > 0, remote);
    const auto& boot = dev->reset();
    ASSERT_FALSE(boot.recovery);
    ASSERT_TRUE(boot.running.has_value());
    EXPECT_EQ(boot.running->fw_version, query_image(*new_image)->fw_version);
  }
  // Local reads the blank target slot before programming it; remote erases it unread.
  EXPECT_LT(trips[0] * 10, trips[1] * 8) << "remote " << trips[0] << " vs local " << trips[1];
}

}  // namespace
}  // namespace openflint::test
