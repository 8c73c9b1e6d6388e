// DriverTraceReader and the tracefs helpers on fake trace files: the device's lines only, the
// timestamp rule, garbage, partial lines, truncation, follow and its stop; the root, the event, --enable's restore.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <mutex>
#include <thread>

#include "fwops/trace/DriverTraceReader.h"
#include "fwops/trace/Tracefs.h"
#include "tests/support/ResultMatchers.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

using test::FailsWith;
using test::IsOk;
using test::TempDir;
using test::read_text;

// A Result's value, or `otherwise` when it failed.
template <typename T, typename U>
T value_or_else(Result<T> r, U otherwise) {
  return r ? *r : static_cast<T>(otherwise);
}

void append(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << text;
}


constexpr const char* kDev = "0000:03:00.0";

// ftrace's header and a few lines for several functions, repeats, older times, garbage.
constexpr const char* kTraceText =
    "# tracer: nop\n"
    "#\n"
    "   kworker/0:1-42    [000] d..1  100.000001: mlx5_fw: 0000:03:00.0 [0x100] 0 [0x2c] first\n"
    "   kworker/0:1-42    [000] d..1  100.000002: mlx5_fw: 0000:04:00.0 [0x200] 0 [0x2c] another function\n"
    "   kworker/0:1-42    [000] d..1  100.000003: mlx5_fw: 0000:03:00.0 [0x100] 0 [0x2c] same time, dropped\n"
    "   kworker/0:1-42    [000] d..1  100.000004: mlx5_fw: 0000:03:00.0 [0xff] 0 [0x2c] older, dropped\n"
    "   kworker/0:1-42    [000] d..1  100.000005: mlx5_fw: 0000:03:00.0 [0x1f00] 1 [0x2d] lost before this\n"
    "   kworker/0:1-42    [000] d..1  100.000006: mlx5_fw: 0000:03:00.0 garbage without brackets\n"
    "   kworker/0:1-42    [000] d..1  100.000007: fw_tracer: 0000:03:00.0 [0x2000] 0 [0x2e] the OFED event name\n"
    "   kworker/0:1-42    [000] d..1  100.000008: mlx5_fw: 0000:03:00.00 [0x3000] 0 [0x2c] not this dbdf\n"
    "   kworker/0:1-42    [000] d..1  100.000009: sched_switch: 0000:03:00.0 [0x4000] 0 [0x2c] other event\n"
    "   kworker/0:1-42    [000] d..1  100.000010: mlx5_fw: 0000:03:00.0 [0x2001] 0 [0x2c] link up on port 1\n";

TEST(DriverTraceReader, KeepsTheDevicesNewerLinesOnly) {
  TempDir dir;
  append(dir / "trace", kTraceText);
  DriverTraceReader reader(dir / "trace", kDev);
  auto records = reader.read_new();
  ASSERT_THAT(records, IsOk());
  ASSERT_EQ(records->size(), 4u);
  EXPECT_EQ((*records)[0], (TraceRecord{.timestamp = 0x100, .lost = false, .event_id = 0x2c, .message = "first"}));
  EXPECT_EQ((*records)[1], (TraceRecord{.timestamp = 0x1f00, .lost = true, .event_id = 0x2d, .message = "lost before this"}));
  EXPECT_EQ((*records)[2].message, "the OFED event name");
  EXPECT_EQ((*records)[3].message, "link up on port 1");
  EXPECT_EQ(reader.stats().not_newer, 2u);
  EXPECT_EQ(reader.stats().malformed, 1u);

  DriverTraceReader other(dir / "trace", "0000:04:00.0");
  auto theirs = other.read_new();
  ASSERT_THAT(theirs, IsOk());
  ASSERT_EQ(theirs->size(), 1u);
  EXPECT_EQ((*theirs)[0].message, "another function");
}

TEST(DriverTraceReader, ReadsOnWaitsForWholeLinesAndSurvivesTruncation) {
  TempDir dir;
  const auto file = dir / "trace";
  append(file, "x-1 [000] ....  1.0: mlx5_fw: 0000:03:00.0 [0x10] 0 [0x2c] one\n"
               "x-1 [000] ....  1.0: mlx5_fw: 0000:03:00.0 [0x11] 0 [0x2c] tw");
  DriverTraceReader reader(file, kDev);
  auto first = reader.read_new();
  ASSERT_THAT(first, IsOk());
  ASSERT_EQ(first->size(), 1u);  // the unfinished line waits
  append(file, "o\n");
  auto second = reader.read_new();
  ASSERT_THAT(second, IsOk());
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ((*second)[0].message, "two");
  EXPECT_THAT(reader.read_new(), IsOk());
  // Cleared (echo > trace) and written anew: read from the start; old times stay dropped.
  std::ofstream(file, std::ios::trunc) << "x-1 [000] ....  1.0: mlx5_fw: 0000:03:00.0 [0x12] 0 [0x2c] three\n";
  auto third = reader.read_new();
  ASSERT_THAT(third, IsOk());
  ASSERT_EQ(third->size(), 1u);
  EXPECT_EQ((*third)[0].message, "three");
  std::filesystem::remove(file);
  EXPECT_THAT(reader.read_new(), FailsWith(ErrorCode::NotFound));
}

TEST(DriverTraceReader, FollowSeesAppendedLinesAndStops) {
  TempDir dir;
  const auto file = dir / "trace";
  append(file, "x-1 [000] ....  1.0: mlx5_fw: 0000:03:00.0 [0x10] 0 [0x2c] before\n");
  DriverTraceReader reader(file, kDev);
  std::stop_source stop;
  std::vector<std::string> seen;
  std::mutex lock;
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    append(file, "x-1 [000] ....  1.0: mlx5_fw: 0000:03:00.0 [0x20] 0 [0x2c] after\n");
    for (int i = 0; i < 200; ++i) {
      {
        std::lock_guard<std::mutex> held(lock);
        if (seen.size() >= 2) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop.request_stop();
  });
  auto followed = reader.follow(
      [&](const TraceRecord& r) {
        std::lock_guard<std::mutex> held(lock);
        seen.push_back(r.message);
      },
      stop.get_token(), std::chrono::milliseconds(30));
  writer.join();
  EXPECT_THAT(followed, IsOk());
  EXPECT_EQ(seen, (std::vector<std::string>{"before", "after"}));
}

TEST(DriverTraceReader, DbdfAndDriverFromSysfs) {
  TempDir dir;
  const auto fn = dir / "devices" / "0000:0A:00.1";
  std::filesystem::create_directories(fn);
  EXPECT_EQ(pci_function_dbdf(fn), "0000:0a:00.1");
  EXPECT_EQ(pci_function_dbdf(""), "");
  EXPECT_EQ(bound_pci_driver(fn), std::nullopt);
  std::filesystem::create_symlink("../../bus/pci/drivers/mlx5_core", fn / "driver");
  EXPECT_EQ(bound_pci_driver(fn), std::optional<std::string>("mlx5_core"));
}

TEST(Tracefs, RootEventAndEnableRestore) {
  TempDir dir;
  ::setenv("OPENFLINT_TRACEFS_ROOT", dir.path().c_str(), 1);
  EXPECT_EQ(tracefs_root(), dir.path());
  ::unsetenv("OPENFLINT_TRACEFS_ROOT");
  EXPECT_EQ(find_driver_trace_event(dir.path()), std::nullopt);
  std::filesystem::create_directories(dir / "events/mlx5/fw_tracer");
  EXPECT_EQ(find_driver_trace_event(dir.path()), std::optional(dir / "events/mlx5/fw_tracer"));
  std::filesystem::create_directories(dir / "events/mlx5/mlx5_fw");
  const auto event = dir / "events/mlx5/mlx5_fw";
  EXPECT_EQ(find_driver_trace_event(dir.path()), std::optional(event));  // the upstream name first
  EXPECT_THAT(trace_event_enabled(event), FailsWith(ErrorCode::Io));
  std::ofstream(event / "enable") << "0\n";
  EXPECT_EQ(value_or_else(trace_event_enabled(event), true), false);
  {
    auto on = TraceEventEnabling::enable(event);
    ASSERT_THAT(on, IsOk());
    EXPECT_TRUE(on->was_off());
    EXPECT_EQ(value_or_else(trace_event_enabled(event), false), true);
  }
  EXPECT_EQ(read_text(event / "enable").substr(0, 1), "0");  // written back
  std::ofstream(event / "enable", std::ios::trunc) << "1\n";
  {
    auto on = TraceEventEnabling::enable(event);
    ASSERT_THAT(on, IsOk());
    EXPECT_FALSE(on->was_off());
  }
  EXPECT_EQ(read_text(event / "enable").substr(0, 1), "1");  // left as it was
}

}  // namespace
}  // namespace openflint
