// BarServer + PciBarAccess: simulated devices served as a shared-memory BAR0, flash driven through it.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>
#include <ctime>

#include "flash/FlashDriver.h"
#include "mtcr/pci/PciBarAccess.h"
#include "sim/BarServer.h"
#include "sim/SimDevice.h"
#include "tests/pcibar/ServedDevice.h"

// Designated initializers that leave members at their defaults are the point of these records.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint {
namespace {

using sim::BarServer;
using sim::BarServerOptions;
using sim::SimDevice;
using test::bar_timeouts;
using test::BarTree;
using test::make;
using test::ServedDevice;
using Clock = std::chrono::steady_clock;

class BarFlash : public ::testing::TestWithParam<const char*> {};

// Whether the model's flash lock is held, read under its bus lock (the server thread writes
// the model; the file's acquire/release pairs order it for the tool, but they sit at another
// virtual address than the server's, so ThreadSanitizer cannot see that edge).
bool model_locked(const SimDevice& dev) {
  const FlashGatewayInfo& g = dev.info().flash_gateway;
  if (g.lock == FlashLockKind::Semaphore) return dev.peek32(g.semaphore_addr) != 0;
  return ((dev.peek32(g.cmd_addr) >> g.layout.lock_bit) & 1u) != 0;
}

// The model's flash array is compared once the server is stopped (joined), for the same reason.
TEST_P(BarFlash, HwIdJedecReadEraseProgram) {
  ServedDevice served(GetParam());
  SimDevice& dev = *served.dev;
  PciBarAccess bar = served.open_bar();
  const std::uint32_t want_id =
      dev.info().hw_id | (std::uint32_t{dev.info().hw_revision.value_or(0)} << 16);
  EXPECT_EQ(bar.hw_id_word(), want_id);
  const std::vector<std::uint8_t> head_before(dev.flash().contents().begin(), dev.flash().contents().begin() + 4096);
  const auto data = test::random_bytes(4096, 11);
  std::uint64_t base = 0;
  std::uint32_t sector = 0;
  {
    auto opened = FlashDriver::open(bar, dev.info().flash_gateway, bar_timeouts());
    ASSERT_TRUE(opened.has_value()) << opened.error().message();
    FlashDriver flash = std::move(opened).value();
    EXPECT_EQ(flash.chip().name, dev.info().default_flash_chip);
    EXPECT_EQ(flash.jedec_id(), dev.flash().chip().jedec_id);
    EXPECT_TRUE(model_locked(dev));  // the tool's lock reached the model

    auto head = flash.read(0, 4096);
    ASSERT_TRUE(head.has_value()) << head.error().message();
    EXPECT_EQ(*head, head_before);

    // The top sector but one; 4 KiB of it programmed (M25P16 sectors are 64 KiB: fewer commands).
    sector = flash.sector_size();
    base = flash.size() - 2 * sector;
    ASSERT_TRUE(flash.erase_sector(base).has_value());
    ASSERT_TRUE(flash.program(base, data).has_value());
    auto back = flash.read(base, data.size());
    ASSERT_TRUE(back.has_value()) << back.error().message();
    EXPECT_EQ(*back, data);
  }
  served.server->stop();  // relays the lock release the driver stored on its way out
  EXPECT_FALSE(dev.gateway().locked());
  EXPECT_TRUE(std::equal(data.begin(), data.end(), dev.flash().contents().begin() + static_cast<std::ptrdiff_t>(base)));
  const auto tail = dev.flash().contents().subspan(base + data.size(), sector - data.size());
  EXPECT_TRUE(std::all_of(tail.begin(), tail.end(), [](std::uint8_t b) { return b == 0xff; }));
  EXPECT_EQ(dev.flash().counters().erases, 1u);
  EXPECT_EQ(served.server->commands_served(), dev.counters().gateway_commands);
  EXPECT_EQ(served.server->failed_accesses(), 0u);
}

// ConnectX-3: 4th-gen gateway, 0xf03fc semaphore; ConnectX-4: gen5, CMD bit 31 lock;
// ConnectX-7: gen6 layout (ADDR at 0xf0420); InfiniHost III Lx: special commands, bank select.
INSTANTIATE_TEST_SUITE_P(Devices, BarFlash, ::testing::Values("connectx3", "connectx4", "connectx7", "mt25204"));

TEST(BarServer, MeasuresCommandsPerSecond) {
  ServedDevice served("connectx4");
  PciBarAccess bar = served.open_bar();
  auto opened = FlashDriver::open(bar, served.dev->info().flash_gateway, bar_timeouts());
  ASSERT_TRUE(opened.has_value()) << opened.error().message();
  const std::uint64_t before = served.server->commands_served();
  const auto start = Clock::now();
  auto data = opened->read(0, 64 * 1024);  // 16 bytes per command: 4096 commands
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_TRUE(data.has_value()) << data.error().message();
  EXPECT_TRUE(std::equal(data->begin(), data->end(), served.dev->flash().contents().begin()));
  const std::uint64_t commands = served.server->commands_served() - before;
  EXPECT_EQ(commands, 4096u);
  std::cout << "[ bar      ] " << commands << " gateway commands in " << seconds * 1e3 << " ms: "
            << static_cast<std::uint64_t>(static_cast<double>(commands) / seconds) << " commands/s, "
            << seconds / static_cast<double>(commands) * 1e6 << " us each\n";
}

// The tool in another process (flint against hcasim): only the file is shared. The child
// reports by exit status: 0 ok, 1 open, 2 flash open, 3 read, 4 compare, 5 erase/program,
// 99 an exception.
int tool_in_child(const std::filesystem::path& device_dir, const FlashGatewayInfo& gateway,
                  const std::vector<std::uint8_t>& expected_head, const std::vector<std::uint8_t>& program_at_1m) {
  auto bar = PciBarAccess::open(device_dir);
  if (!bar) return 1;
  auto flash = FlashDriver::open(*bar, gateway, bar_timeouts());
  if (!flash) return 2;
  auto head = flash->read(0, expected_head.size());
  if (!head) return 3;
  if (*head != expected_head) return 4;
  if (!flash->erase_sector(0x100000) || !flash->program(0x100000, program_at_1m)) return 5;
  return 0;
}

TEST(BarServer, ToolInAnotherProcess) {
  ServedDevice served("connectx4");
  const auto contents = served.dev->flash().contents();
  const std::vector<std::uint8_t> head(contents.begin(), contents.begin() + 8192);
  const auto data = test::random_bytes(4096, 5);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // never returns into gtest: a second copy of the suite would run
    int code = 99;
    try {
      code = tool_in_child(served.tree.device_dir(), served.dev->info().flash_gateway, head, data);
    } catch (...) {
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  served.server->stop();
  EXPECT_TRUE(std::equal(data.begin(), data.end(), served.dev->flash().contents().begin() + 0x100000));
  EXPECT_FALSE(served.dev->gateway().locked());  // the child's release was relayed
}

double process_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

TEST(BarServer, IdleServerSleepsAndStillAnswers) {
  ServedDevice served("connectx4");
  PciBarAccess bar = served.open_bar();
  const double cpu_before = process_cpu_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const double idle_cpu = process_cpu_ms() - cpu_before;
  EXPECT_LT(idle_cpu, 150.0) << "an idle server should sleep, not spin";
  const auto start = Clock::now();
  auto opened = FlashDriver::open(bar, served.dev->info().flash_gateway, bar_timeouts());
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  ASSERT_TRUE(opened.has_value()) << opened.error().message();
  std::cout << "[ bar      ] idle server: " << idle_cpu << " ms of CPU in 500 ms; first commands after idle took "
            << ms << " ms\n";
}

TEST(BarServer, StoppedServerTimesOutInsteadOfHanging) {
  ServedDevice served("connectx4");
  PciBarAccess bar = served.open_bar();
  served.server->stop();
  EXPECT_FALSE(served.server->serving());
  const auto start = Clock::now();
  auto opened = FlashDriver::open(bar, served.dev->info().flash_gateway, bar_timeouts());
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().code(), ErrorCode::Timeout) << opened.error().message();
  EXPECT_NE(opened.error().message().find("stayed busy after"), std::string::npos) << opened.error().message();
  EXPECT_GE(ms, 100.0);  // FlashTimeouts::gateway_busy
  EXPECT_LT(ms, 5000.0);
  std::cout << "[ bar      ] polling a stopped server: " << opened.error().message() << ", " << ms << " ms\n";
}

TEST(BarServer, HeldLockShowsThroughTheBar) {
  auto dev = make("connectx4");
  dev->gateway().set_locked(true);  // another agent holds CMD bit 31
  ServedDevice served(std::move(dev));
  PciBarAccess bar = served.open_bar();
  auto lock = FlashLock::acquire(bar, served.dev->info().flash_gateway, std::chrono::milliseconds(20));
  ASSERT_FALSE(lock.has_value());
  EXPECT_EQ(lock.error().code(), ErrorCode::Busy);
}

TEST(BarServer, ResyncShowsALockClearedByPowerCycle) {
  auto dev = make("connectx3");
  dev->gateway().set_locked(true);  // a tool died holding the 0xf03fc semaphore
  ServedDevice served(std::move(dev));
  PciBarAccess bar = served.open_bar();
  const FlashGatewayInfo& gateway = served.dev->info().flash_gateway;
  auto held = FlashLock::acquire(bar, gateway, std::chrono::milliseconds(5));
  ASSERT_FALSE(held.has_value());
  EXPECT_EQ(held.error().code(), ErrorCode::Busy);
  served.dev->power_cycle();  // the model forgets the semaphore; the file still shows it
  EXPECT_EQ(*bar.read32(gateway.semaphore_addr), 1u);
  served.server->resync_from_model();
  EXPECT_EQ(*bar.read32(gateway.semaphore_addr), 0u);
  auto flash = FlashDriver::open(bar, gateway, bar_timeouts());
  EXPECT_TRUE(flash.has_value()) << flash.error().message();
}

TEST(BarServer, PlainStoresReachTheModelOnlyForWatchedRegisters) {
  ServedDevice served("connectx4", BarServerOptions{.extra_registers = {0x1000}});
  PciBarAccess bar = served.open_bar();
  const std::uint32_t boot = served.dev->info().boot_address.address;
  ASSERT_NE(boot, 0u);
  ASSERT_TRUE(bar.write32(boot, 0x00400000).has_value());
  ASSERT_TRUE(bar.write32(0x1000, 0xcafe).has_value());
  ASSERT_TRUE(bar.write32(0x2000, 0xbeef).has_value());  // not watched: stays in the file
  served.server->stop();
  EXPECT_EQ(served.dev->peek32(boot), 0x00400000u);
  EXPECT_EQ(served.dev->peek32(0x1000), 0xcafeu);
  EXPECT_EQ(served.dev->peek32(0x2000), 0u);
  EXPECT_EQ(*bar.read32(0x2000), 0xbeefu);
  EXPECT_EQ(served.server->stores_relayed(), 2u);
}

TEST(BarServer, FailedModelCommandLeavesBusySet) {
  ServedDevice served("connectx4");
  PciBarAccess bar = served.open_bar();
  served.dev->set_faults(sim::SimFaults{.fail_gateway_command = 1});  // the JEDEC probe
  auto opened = FlashDriver::open(bar, served.dev->info().flash_gateway, bar_timeouts());
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().code(), ErrorCode::Timeout) << opened.error().message();
  // The driver's lock release (CMD = 0) un-sticks the gateway: the next tool works.
  auto again = FlashDriver::open(bar, served.dev->info().flash_gateway, bar_timeouts());
  ASSERT_TRUE(again.has_value()) << again.error().message();
  EXPECT_EQ(served.server->failed_accesses(), 1u);
}

TEST(BarServer, FileLivesInTheGivenDirectoryAndGoesWithTheServer) {
  test::TempDir dir;
  auto dev = make("connectx3");
  std::filesystem::path path;
  {
    auto server = BarServer::start(*dev, BarServerOptions{.directory = dir.path(), .bar_size = 0x1000000});
    ASSERT_TRUE(server.has_value()) << server.error().message();
    path = (*server)->path();
    EXPECT_EQ(path.parent_path(), dir.path());
    EXPECT_EQ(std::filesystem::file_size(path), 0x1000000u);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  auto bad_dir = BarServer::start(*dev, BarServerOptions{.directory = dir.path() / "missing"});
  ASSERT_FALSE(bad_dir.has_value());
  EXPECT_EQ(bad_dir.error().code(), ErrorCode::Io);
  auto too_small = BarServer::start(*dev, BarServerOptions{.directory = dir.path(), .bar_size = 0x10000});
  ASSERT_FALSE(too_small.has_value());
  EXPECT_EQ(too_small.error().code(), ErrorCode::InvalidArgument) << too_small.error().message();
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // failed starts leave nothing behind
}

}  // namespace
}  // namespace openflint
