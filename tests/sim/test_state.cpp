// SimDevice save/load: flash contents, power, faults, counters and lock survive a round trip.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "flash/FlashDriver.h"
#include "fwops/access/DeviceLockFile.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::sim {
namespace {

TEST(SimState, SaveLoadRoundTrip) {
  test::TempDir dir;
  auto dev = std::move(SimDevice::create("connectx3")).value();
  {
    auto flash = FlashDriver::open(*dev, dev->info().flash_gateway);
    ASSERT_TRUE(flash.has_value());
    const std::vector<std::uint8_t> data{1, 2, 3, 4, 5};
    ASSERT_TRUE(flash->program(0x123456, data).has_value());
  }
  ASSERT_TRUE(dev->write32(0xf0000, 0x00800000).has_value());  // boot address register
  SimFaults faults;
  faults.power_cut_after_ops = 7;
  faults.flash_busy_polls = 2;
  dev->set_faults(faults);
  ASSERT_TRUE(dev->read32(0xf03fc).has_value());  // leave the semaphore taken
  const SimCounters before = dev->counters();
  auto saved = dev->save_state(dir.path() / "dev");
  ASSERT_THAT(saved, test::IsOk());
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "dev" / "state.json"));
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "dev" / "flash.bin"), 16u * 1024 * 1024);

  auto loaded = SimDevice::load_state(dir.path() / "dev");
  ASSERT_THAT(loaded, test::IsOk());
  SimDevice& back = **loaded;
  EXPECT_EQ(back.info().sim_model, "connectx3");
  EXPECT_TRUE(std::equal(dev->flash().contents().begin(), dev->flash().contents().end(),
                         back.flash().contents().begin()));
  EXPECT_EQ(back.flash().contents()[0x123458], 3);
  EXPECT_EQ(*back.read32(0xf0000), 0x00800000u);
  EXPECT_EQ(back.faults().power_cut_after_ops, 7u);
  EXPECT_EQ(back.faults().flash_busy_polls, 2u);
  EXPECT_TRUE(back.gateway().locked());
  EXPECT_EQ(back.counters().flash.programs, before.flash.programs);
  EXPECT_EQ(back.counters().gateway_commands, before.gateway_commands);
  EXPECT_TRUE(back.powered());
}

TEST(SimState, PowerOffStateIsKept) {
  test::TempDir dir;
  auto dev = std::move(SimDevice::create("spectrum")).value();
  SimFaults faults;
  faults.power_cut_after_ops = 1;
  dev->set_faults(faults);
  {
    auto flash = FlashDriver::open(*dev, dev->info().flash_gateway);
    ASSERT_TRUE(flash.has_value());
    EXPECT_FALSE(flash->erase_sector(0).has_value());
  }
  EXPECT_FALSE(dev->powered());
  ASSERT_TRUE(dev->save_state(dir.path()).has_value());
  auto back = SimDevice::load_state(dir.path());
  ASSERT_TRUE(back.has_value());
  EXPECT_FALSE((*back)->powered());
  EXPECT_FALSE((*back)->read32(0xf0014).has_value());
}

TEST(SimState, RejectsBrokenState) {
  test::TempDir dir;
  auto missing = SimDevice::load_state(dir.path());
  ASSERT_THAT(missing, test::FailsWith(ErrorCode::NotFound));  // core/InputFile: ENOENT (exit 4 as Io)

  std::ofstream(dir.path() / "state.json") << "{not json";
  auto garbage = SimDevice::load_state(dir.path());
  ASSERT_THAT(garbage, test::FailsWith(ErrorCode::InvalidImage));

  auto dev = std::move(SimDevice::create("connectx4")).value();
  ASSERT_TRUE(dev->save_state(dir.path()).has_value());
  std::filesystem::resize_file(dir.path() / "flash.bin", 1000);
  auto truncated = SimDevice::load_state(dir.path());
  ASSERT_THAT(truncated, test::FailsWith(ErrorCode::InvalidImage));
  EXPECT_NE(truncated.error().message().find("does not fit"), std::string::npos);
}

TEST(SimDirectory, LinksPlantedAtItsFilesAreRefusedNotFollowed) {
  // The directory of a sim:PATH device may be writable by others; root must never create,
  // truncate or write the target of a link planted there.
  test::TempDir dir;
  const auto victim = dir.path() / "victim";
  auto dev = std::move(SimDevice::create("connectx3")).value();
  ASSERT_TRUE(dev->save_state(dir.path() / "dev").has_value());

  std::filesystem::create_symlink(victim, dir.path() / "dev" / "lock");
  auto lock = DeviceLockFile::acquire(dir.path() / "dev" / "lock", std::chrono::milliseconds(0), "sim:dev");
  ASSERT_THAT(lock, test::FailsWith(ErrorCode::Io));
  EXPECT_NE(lock.error().message().find("is a symbolic link"), std::string::npos) << lock.error().message();
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(victim)));

  for (const char* name : {"flash.bin", "state.json"}) {
    SCOPED_TRACE(name);
    const auto file = dir.path() / "dev" / name;
    const auto aside = dir.path() / name;  // the real file, put back afterwards (never read: 16 MiB)
    std::filesystem::rename(file, aside);
    std::filesystem::create_symlink(victim, file);
    auto saved = dev->save_state(dir.path() / "dev");
    ASSERT_THAT(saved, test::FailsWith(ErrorCode::Io));
    EXPECT_NE(saved.error().message().find("is a symbolic link"), std::string::npos) << saved.error().message();
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(victim)));
    std::filesystem::remove(file);
    std::filesystem::rename(aside, file);
  }
  for (const auto& e : std::filesystem::directory_iterator(dir.path() / "dev"))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << "left behind: " << e.path();

  // A FIFO at the lock path is not opened for writing either.
  std::filesystem::remove(dir.path() / "dev" / "lock");
  ASSERT_EQ(::mkfifo((dir.path() / "dev" / "lock").c_str(), 0600), 0);
  lock = DeviceLockFile::acquire(dir.path() / "dev" / "lock", std::chrono::milliseconds(0), "sim:dev");
  ASSERT_FALSE(lock);
  EXPECT_NE(lock.error().message().find("FIFO"), std::string::npos) << lock.error().message();
}

}  // namespace
}  // namespace openflint::sim
