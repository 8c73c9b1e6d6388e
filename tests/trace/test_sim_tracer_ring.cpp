// The simulated firmware tracer's event ring read back as the Linux driver reads it: messages, exact timestamps, the lost bit, raw events.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "tests/trace/SimTracerFixture.h"

namespace openflint::test {
namespace {

TEST(SimTracer, ABurnResetAndNvChangeReadBackAsTheDriverPrintsThem) {
  auto dev = device_running("connectx4", traced_image(28));
  FirmwareTracer& tracer = *dev->tracer();
  start_tracing(*dev);
  sim::SimRegisterPort port(*dev);
  auto burned = burn_through_firmware(port, *dev, dev->info(), traced_image(29), BurnOptions{});
  ASSERT_TRUE(burned) << burned.error().message();
  (void)dev->reset();  // the new firmware boots: its strings are the same table
  EXPECT_EQ(access(*dev, 0x9033, Tlv::kMethodWrite, std::vector<std::uint8_t>(0x10, 0)).status, 0);  // MNVIA

  const std::vector<sim::TracedMessage> written = tracer.recent();
  const std::vector<M> k = kinds(written);
  ASSERT_FALSE(k.empty());
  // OwnerTaken came before tracing was active: discarded, as the driver never sees it either.
  EXPECT_EQ(std::find(k.begin(), k.end(), M::OwnerTaken), k.end());
  EXPECT_NE(std::find(k.begin(), k.end(), M::UpdateState), k.end());
  EXPECT_NE(std::find(k.begin(), k.end(), M::FlashErase), k.end());
  EXPECT_EQ(std::find(k.begin(), k.end(), M::FlashProgram), k.end());  // DEBUG: below INFO
  const auto reset_at = std::find(k.begin(), k.end(), M::ResetRun);
  ASSERT_NE(reset_at, k.end());
  const auto boot_index = static_cast<std::size_t>(reset_at - k.begin()) + 1;
  ASSERT_LT(boot_index, written.size());
  EXPECT_EQ(written[boot_index].message, M::Boot);
  EXPECT_THAT(written[boot_index].params, ::testing::ElementsAre(12u, 29u, 1100u, ::testing::_));  // the new FW runs
  EXPECT_EQ(k.back(), M::NvConfigResetAll);
  EXPECT_EQ(tracer.counters().events_dropped, 0u);

  TraceParser parser = driver_parser(*dev);
  std::size_t blocks = 0;
  const std::vector<TraceRecord> records = read_ring(*dev, parser, &blocks);
  EXPECT_EQ(blocks, tracer.counters().blocks_written);
  ASSERT_EQ(records.size(), written.size());
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].message, expected_text(written[i])) << i;
    EXPECT_EQ(records[i].timestamp, written[i].timestamp) << i;  // the driver's rule gives the exact time
    EXPECT_GT(records[i].timestamp, previous) << i;
    EXPECT_EQ(records[i].event_id, FirmwareTracer::kStringEventId);
    EXPECT_FALSE(records[i].lost);
    previous = records[i].timestamp;
  }
  EXPECT_EQ(parser.stats().raw_messages, 0u);
  EXPECT_EQ(parser.stats().format_problems, 0u);
}

TEST(SimTracer, TimestampsCrossing128TickWindowsStayExact) {
  auto dev = device_running("connectx4", traced_image(28));
  FirmwareTracer& tracer = *dev->tracer();
  std::uint64_t fake = 0x1234567800;
  tracer.set_clock([&fake] { return fake += 37; });  // every message moves the clock; windows are crossed often
  start_tracing(*dev);
  for (std::uint32_t t = 90; t < 120; ++t) dev->set_temperature_c(t % 2 == 0 ? 110 : 90);  // 30 crossings, one per burst
  for (int i = 0; i < 20; ++i) tracer.trace(M::NvConfigStored, {static_cast<std::uint32_t>(i)});  // one burst
  tracer.end_burst();
  TraceParser parser = driver_parser(*dev);
  const auto records = read_ring(*dev, parser);
  const auto written = tracer.recent();
  ASSERT_EQ(records.size(), written.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].timestamp, written[i].timestamp) << i;
    EXPECT_EQ(records[i].message, expected_text(written[i])) << i;
  }
}

TEST(SimTracer, AnOverfullBurstDropsMessagesAndSetsTheLostBit) {
  auto dev = device_running("connectx4", traced_image(28));
  FirmwareTracer& tracer = *dev->tracer();
  start_tracing(*dev);
  ASSERT_EQ(set_itrace(*dev, 1u << 23, 0), sim::kIcmdStatusOk);  // FLASH at DEBUG
  // One burst: the firmware erases 4 MiB unit by unit (2 events per unit) in one call.
  ASSERT_TRUE(dev->firmware_erase(0x400000, 0x400000));
  tracer.end_burst();
  const auto c = tracer.counters();
  const std::uint64_t units = 0x400000 / dev->flash().chip().min_erase_size();
  ASSERT_GT(units, 32u);
  // 32 units fit the 64-event FIFO; the rest (2 events each) and the summary (3) are dropped.
  EXPECT_EQ(c.events_dropped, (units - 32) * 2 + 3);
  EXPECT_EQ(c.messages_dropped, units - 32 + 1);
  ASSERT_TRUE(dev->firmware_program(0xfff000, std::vector<std::uint8_t>(16, 0)));  // the next burst
  tracer.end_burst();
  const auto written = tracer.recent();
  ASSERT_FALSE(written.empty());
  EXPECT_TRUE(written.back().lost);
  TraceParser parser = driver_parser(*dev);
  const auto records = read_ring(*dev, parser);
  ASSERT_EQ(records.size(), written.size());
  std::size_t lost = 0;
  for (const auto& r : records) lost += r.lost ? 1 : 0;
  EXPECT_EQ(lost, 1u);
  EXPECT_TRUE(records.back().lost);
  EXPECT_EQ(records.back().message, expected_text(written.back()));
  // 64 events in the burst: the erase units before the FIFO filled (SetItrace was the previous burst).
  std::size_t in_first_burst = 0;
  for (const auto& m : written) in_first_burst += m.message == M::FlashEraseUnit ? 2 : 0;
  EXPECT_EQ(in_first_burst, FirmwareTracer::kBurstEvents);
}

TEST(SimTracer, AnImageWithoutTheSectionTracesRawMessages) {
  auto dev = device_running("connectx4", traced_image(28, 0x209, false));
  EXPECT_EQ(cap(*dev).num_string_db, 0);
  start_tracing(*dev);
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  TraceParser parser = driver_parser(*dev, false);
  const auto records = read_ring(*dev, parser);
  ASSERT_FALSE(records.empty());
  for (const auto& r : records) EXPECT_THAT(r.message, ::testing::StartsWith("0x")) << r.message;
  EXPECT_EQ(parser.stats().raw_messages, records.size());
  // RegisterRefused: its first event and 3 parameter events, each raw.
  EXPECT_EQ(records.size(), 4u);
}

TEST(SimTracer, EventsAreDiscardedUntilTracingIsActiveInMemoryMode) {
  auto dev = device_running("connectx4", traced_image(28));
  FirmwareTracer& tracer = *dev->tracer();
  EXPECT_EQ(query(*dev, 0x9999, 16).status, kNotSupported);
  EXPECT_EQ(tracer.counters().messages_written, 0u);
  EXPECT_GT(tracer.counters().messages_discarded, 0u);
  std::array<std::uint8_t, sim::kTraceBlockBytes> block{};
  ASSERT_TRUE(dev->read_trace_block(0, block));
  EXPECT_TRUE(std::all_of(block.begin(), block.end(), [](std::uint8_t b) { return b == 0; }));
  EXPECT_FALSE(dev->read_trace_block(sim::kTraceBlocks, block));
  // MTRC_CTRL reports the status and a running clock.
  start_tracing(*dev);
  auto ctrl = MtrcCtrlRegister::decode(query(*dev, MtrcCtrlRegister::kId, MtrcCtrlRegister::kSize).data);
  ASSERT_TRUE(ctrl);
  EXPECT_EQ(ctrl->trace_status, MtrcCtrlRegister::kStatusActive);
  EXPECT_GT(ctrl->current_timestamp, 0u);
  MtrcCtrlRegister bad = MtrcCtrlRegister::set_status(3, false);
  EXPECT_EQ(access(*dev, MtrcCtrlRegister::kId, Tlv::kMethodWrite, bad.encode()).status, kBadParam);
}

}  // namespace
}  // namespace openflint::test
