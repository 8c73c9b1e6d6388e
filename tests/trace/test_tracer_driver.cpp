// The simulated mlx5_core's firmware tracer (pcisim/Mlx5TracerDriver) over a simulated device, in
// process: it sets the tracer up as Linux's driver does, writes the firmware's messages as mlx5_fw
// tracepoint lines into a served tracefs (pcisim/TraceFs), honours the event's enable file, gives
// ownership back when it goes, waits while another owns the tracer, sets it up again after a power
// cycle, and leaves parts without a host-memory tracer alone.
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "image/TraceRecord.h"
#include "pcisim/Mlx5TracerDriver.h"
#include "pcisim/TraceFs.h"
#include "tests/support/TestSupport.h"
#include "tests/trace/SimTracerFixture.h"

namespace openflint::test {
namespace {

using pcisim::Mlx5TracerDriver;
using pcisim::TracerDriverState;
using pcisim::TraceFs;

constexpr std::string_view kDbdf = "0000:03:00.0";

// The records of the mlx5_fw lines for kDbdf in `root`/trace.
std::vector<TraceRecord> lines_of(const std::filesystem::path& root) {
  std::ifstream in(root / "trace");
  std::vector<TraceRecord> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("mlx5_fw: ");
    if (line.rfind('#', 0) == 0 || at == std::string::npos) continue;
    auto parsed = parse_tracepoint_text(std::string_view(line).substr(at + 9));
    EXPECT_TRUE(parsed) << line;
    if (parsed && parsed->dbdf == kDbdf) out.push_back(parsed->record);
  }
  return out;
}

struct DriverBench {
  TempDir dir;
  std::unique_ptr<TraceFs> tracefs;
  DriverBench() {
    auto made = TraceFs::create(dir / "tracing");
    EXPECT_TRUE(made) << made.error().message();
    tracefs = std::move(*made);
  }
  [[nodiscard]] std::vector<TraceRecord> lines() const { return lines_of(dir / "tracing"); }
};

TEST(TracerDriver, SetsUpAsLinuxDoesAndWritesTheFirmwaresMessages) {
  DriverBench bench;
  auto dev = device_running("connectx4", traced_image(28));
  auto driver = Mlx5TracerDriver::start(*dev, std::string(kDbdf), bench.tracefs.get());
  driver->poll_now();
  ASSERT_EQ(driver->state(), TracerDriverState::Tracing) << driver->last_problem();
  EXPECT_TRUE(dev->tracer()->settings().owner);
  EXPECT_EQ(dev->tracer()->settings().trace_status, MtrcCtrlRegister::kStatusActive);
  EXPECT_EQ(dev->tracer()->settings().trace_mode, MtrcConfRegister::kModeMemory);

  // Firmware activity: a refused register and an MFRL arm.
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  dev->arm_reset(0x08);  // traced by the firmware; the burst ends with the next access
  dev->tracer()->end_burst();
  driver->poll_now();
  const auto lines = bench.lines();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[lines.size() - 2].message, "access register 0x9999 method 1 refused with status 0x" + std::to_string(kNotSupported));
  EXPECT_EQ(lines.back().message, "MFRL: reset armed for levels 0x8");
  EXPECT_EQ(lines.back().event_id, FirmwareTracer::kStringEventId);
  // The timestamps are the firmware's, exactly (the driver's reconstruction from 7 bits + T).
  const auto recent = dev->tracer()->recent();
  EXPECT_EQ(lines.back().timestamp, recent.back().timestamp);
  for (std::size_t i = 1; i < lines.size(); ++i) EXPECT_GT(lines[i].timestamp, lines[i - 1].timestamp);
  EXPECT_EQ(driver->messages(), lines.size());
}

TEST(TracerDriver, ADisabledEventRecordsNothing) {
  DriverBench bench;
  auto dev = device_running("connectx4", traced_image(28));
  auto driver = Mlx5TracerDriver::start(*dev, std::string(kDbdf), bench.tracefs.get());
  driver->poll_now();
  ASSERT_EQ(driver->state(), TracerDriverState::Tracing) << driver->last_problem();
  std::ofstream(bench.dir / "tracing/events/mlx5/mlx5_fw/enable") << "0\n";
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  driver->poll_now();
  EXPECT_TRUE(bench.lines().empty());
  EXPECT_EQ(driver->messages(), 1u);  // consumed, not recorded: the kernel drops a disabled event's prints
  std::ofstream(bench.dir / "tracing/events/mlx5/mlx5_fw/enable") << "1\n";
  EXPECT_EQ(query(*dev, 0x9998, 16).status, kNotSupported);
  driver->poll_now();
  ASSERT_EQ(bench.lines().size(), 1u);
  EXPECT_EQ(bench.lines()[0].message, "access register 0x9998 method 1 refused with status 0x" + std::to_string(kNotSupported));
}

TEST(TracerDriver, GivesOwnershipBackAndWaitsForAnotherOwner) {
  DriverBench bench;
  auto dev = device_running("connectx4", traced_image(28));
  {
    auto driver = Mlx5TracerDriver::start(*dev, std::string(kDbdf), bench.tracefs.get());
    driver->poll_now();
    ASSERT_EQ(driver->state(), TracerDriverState::Tracing) << driver->last_problem();
  }
  EXPECT_FALSE(dev->tracer()->settings().owner) << "an unbound driver keeps the tracer";
  ASSERT_EQ(ask_owner(*dev, true), 1);  // another tool takes it
  auto driver = Mlx5TracerDriver::start(*dev, std::string(kDbdf), bench.tracefs.get());
  driver->poll_now();
  EXPECT_EQ(driver->state(), TracerDriverState::NotOwner);
  ASSERT_EQ(ask_owner(*dev, false), 0);  // given up
  // The driver asks again after a second.
  for (int i = 0; i < 40 && driver->state() != TracerDriverState::Tracing; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(driver->state(), TracerDriverState::Tracing) << driver->last_problem();
}

TEST(TracerDriver, SetsTheTracerUpAgainAfterAPowerCycle) {
  DriverBench bench;
  auto dev = device_running("connectx4", traced_image(28));
  auto driver = Mlx5TracerDriver::start(*dev, std::string(kDbdf), bench.tracefs.get());
  driver->poll_now();
  ASSERT_EQ(driver->state(), TracerDriverState::Tracing) << driver->last_problem();
  dev->power_cycle();  // the tracer comes back disabled and unowned
  EXPECT_FALSE(dev->tracer()->settings().owner);
  for (int i = 0; i < 40 && !(driver->state() == TracerDriverState::Tracing && dev->tracer()->settings().owner); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(driver->state(), TracerDriverState::Tracing) << driver->last_problem();
  EXPECT_TRUE(dev->tracer()->settings().owner);
  EXPECT_EQ(query(*dev, 0x9997, 16).status, kNotSupported);
  driver->poll_now();
  ASSERT_FALSE(bench.lines().empty());
  EXPECT_EQ(bench.lines().back().message, "access register 0x9997 method 1 refused with status 0x" + std::to_string(kNotSupported));
}

TEST(TracerDriver, LeavesPartsWithoutAHostMemoryTracerAlone) {
  DriverBench bench;
  for (const char* model : {"connectx3", "switchib"}) {
    auto dev = sim::SimDevice::create(model);
    ASSERT_TRUE(dev) << dev.error().message();
    auto driver = Mlx5TracerDriver::start(**dev, std::string(kDbdf), bench.tracefs.get());
    driver->poll_now();
    EXPECT_NE(driver->state(), TracerDriverState::Tracing) << model;
  }
  auto spectrum = device_running("switchib", traced_image(28, 0x247));  // a FIFO-only tracer
  ASSERT_NE(spectrum->tracer(), nullptr);
  auto driver = Mlx5TracerDriver::start(*spectrum, std::string(kDbdf), bench.tracefs.get());
  driver->poll_now();
  EXPECT_EQ(driver->state(), TracerDriverState::NoTracer);
  EXPECT_FALSE(spectrum->tracer()->settings().owner);
}

}  // namespace
}  // namespace openflint::test
