// RemoteBusAccess against FakeBusServer: pipelined gateway transactions (one round trip, bounded batches, errors in
// step, lost replies poison) and the G register channel (probe once, NotSupported from a legacy server, batches).
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "mtcr/remote/RemoteBusAccess.h"
#include "mtcr/remote/RemoteRegisterPort.h"
#include "tests/remote/FakeBusServer.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;
using test::FakeBusOptions;
using test::FakeBusServer;

std::unique_ptr<RemoteBusAccess> open_remote(FakeBusServer& server, std::chrono::milliseconds timeout = 5000ms) {
  auto access = RemoteBusAccess::open(server.client(), "mt4115_pciconf0", timeout);
  EXPECT_TRUE(access.has_value()) << access.error().message();
  return access ? std::move(access).value() : nullptr;
}

// A flash gateway transaction as SpiGatewayBus::run sends it: ADDR, two DATA, CMD, then CMD..DATA.
const std::vector<RegisterWrite> kTransaction{{0xf0100, 0x3}, {0xf0104, 0x11}, {0xf0108, 0x22}, {0xf00f0, 0x80000000}};

TEST(RemotePipeline, AGatewayTransactionIsOneRoundTrip) {
  FakeBusServer server;
  std::size_t before = 0, after = 0;
  std::vector<std::uint32_t> polled(7);
  {
    auto access = open_remote(server);
    ASSERT_NE(access, nullptr);
    const auto trips = access->round_trips();
    before = server.round_trips;
    ASSERT_TRUE(access->write_then_read(kTransaction, 0xf00f0, polled).has_value());
    after = server.round_trips;
    EXPECT_EQ(access->round_trips(), trips + 1);
  }
  server.join();
  EXPECT_EQ(after - before, 1u) << "the server waited for the client more than once";
  // In order, one W per write and the poll as one B.
  const std::vector<std::string> tail(server.requests.end() - 6, server.requests.end() - 1);  // the last is C
  EXPECT_EQ(tail, (std::vector<std::string>{"W 0xf0100 0x3", "W 0xf0104 0x11", "W 0xf0108 0x22", "W 0xf00f0 0x80000000",
                                            "B 0xf00f0 28"}));
  EXPECT_EQ(polled[0], 0x80000000u);  // read after the writes
  EXPECT_EQ(polled[4], 0x3u);
  EXPECT_EQ(polled[6], 0x22u);
}

TEST(RemotePipeline, WithoutPipeliningEveryRequestWouldBeARoundTrip) {
  // The same requests one by one: the counter the test above relies on does count each wait.
  FakeBusServer server;
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  const std::size_t before = server.round_trips;
  for (const auto& w : kTransaction) ASSERT_TRUE(access->write32(w.address, w.value).has_value());
  EXPECT_EQ(server.round_trips - before, kTransaction.size());
}

TEST(RemotePipeline, LongSequencesGoInBoundedBatches) {
  FakeBusServer server;
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  std::vector<RegisterWrite> writes;
  for (std::uint32_t i = 0; i < 40; ++i) writes.push_back({0x1000 + 4 * i, i});
  const auto trips = access->round_trips();
  ASSERT_TRUE(access->write_sequence(writes).has_value());
  EXPECT_EQ(access->round_trips() - trips, 3u);  // 16 + 16 + 8
  EXPECT_EQ(access->read32(0x1000 + 4 * 39).value(), 39u);
  // A single dword poll rides along as R.
  std::uint32_t one = 0;
  ASSERT_TRUE(access->write_then_read(std::vector<RegisterWrite>{{0x2000, 7}}, 0x2000, std::span(&one, 1)).has_value());
  EXPECT_EQ(one, 7u);
}

TEST(RemotePipeline, AnErrorReplyToOneWriteIsTheCallsErrorAndTheStreamStaysInStep) {
  FakeBusOptions options;
  options.failing_write = 0xf0104;
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  std::vector<std::uint32_t> polled(2);
  const auto r = access->write_then_read(kTransaction, 0xf00f0, polled);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_NE(r.error().message().find("Invalid offset"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("0xf0104"), std::string::npos) << r.error().message();
  // Every reply of the batch was consumed: the next read gets its own answer.
  EXPECT_EQ(access->read32(0xf0108).value(), 0x22u);
}

TEST(RemotePipeline, AMissingReplyInABatchPoisonsTheConnection) {
  FakeBusOptions options;
  options.silent_on = 'B';
  FakeBusServer server(options);
  auto access = open_remote(server, 200ms);
  ASSERT_NE(access, nullptr);
  std::vector<std::uint32_t> polled(4);
  const auto r = access->write_then_read(kTransaction, 0xf00f0, polled);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Timeout);
  const auto again = access->read32(0);
  ASSERT_FALSE(again.has_value());
  EXPECT_NE(again.error().message().find("unusable"), std::string::npos) << again.error().message();
}

TEST(RemotePipeline, APollWithoutBlockReadsFallsBackToDwords) {
  FakeBusOptions options;
  options.block_commands = false;  // mstflint's MST_UL build
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  std::vector<std::uint32_t> polled(3);
  ASSERT_TRUE(access->write_then_read(kTransaction, 0xf0100, polled).has_value());
  EXPECT_EQ(polled, (std::vector<std::uint32_t>{0x3, 0x11, 0x22}));
  EXPECT_EQ(access->has_block_read(), std::optional<bool>(false));
}

TEST(RemoteRegisterChannel, ALegacyServerHasNoneAndIsAskedOnce) {
  FakeBusServer server;  // answers G with "E Invalid command", like mstmtserver
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  const auto port = RemoteRegisterPort::open(*access);
  ASSERT_FALSE(port.has_value());
  EXPECT_EQ(port.error().code(), ErrorCode::NotSupported);
  const auto trips = access->round_trips();
  EXPECT_EQ(access->register_channel().error().code(), ErrorCode::NotSupported);
  EXPECT_EQ(access->round_trips(), trips);  // remembered
  EXPECT_EQ(access->read32(0).value(), 0u);  // CR-space still works
}

TEST(RemoteRegisterChannel, QueriesAndWritesThroughThePort) {
  FakeBusOptions options;
  options.register_bytes = 64;
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  auto port = RemoteRegisterPort::open(*access);
  ASSERT_TRUE(port.has_value()) << port.error().message();
  EXPECT_EQ((*port)->max_register_bytes(), 64u);
  AccessRegisterTlv write;
  write.register_id = 0x9062;
  write.method = AccessRegisterTlv::kMethodWrite;
  write.tid = 77;
  write.data = {0x01, 0x02, 0x03, 0x04, 0xa0, 0xb0, 0xc0, 0xd0};
  auto written = (*port)->transact(write);
  ASSERT_TRUE(written.has_value()) << written.error().message();
  EXPECT_EQ(written->status, 0);
  EXPECT_EQ(written->tid, 77u);
  AccessRegisterTlv query = write;
  query.method = AccessRegisterTlv::kMethodQuery;
  query.data.assign(8, 0);
  auto read = (*port)->transact(query);
  ASSERT_TRUE(read.has_value()) << read.error().message();
  EXPECT_EQ(read->data, write.data);
  EXPECT_EQ(server.requests.back(), "G 0x9062 1 8 0x0 0x0");
  // Bigger than the channel: refused before sending.
  query.data.assign(68, 0);
  EXPECT_EQ((*port)->transact(query).error().code(), ErrorCode::InvalidArgument);
  // A batch of 20 goes in two round trips (16 + 4), answers in order.
  std::vector<AccessRegisterTlv> batch(20, write);
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i].data[3] = static_cast<std::uint8_t>(i);
  const auto trips = access->round_trips();
  auto answers = (*port)->transact_all(batch);
  ASSERT_TRUE(answers.has_value()) << answers.error().message();
  EXPECT_EQ(access->round_trips() - trips, 2u);
  ASSERT_EQ(answers->size(), 20u);
  for (std::size_t i = 0; i < answers->size(); ++i) EXPECT_EQ((*answers)[i].data[3], i);
  EXPECT_EQ((*port)->accesses(), 23u);  // every access asked, the refused one too (as SimRegisterPort counts)
}

}  // namespace
}  // namespace openflint
