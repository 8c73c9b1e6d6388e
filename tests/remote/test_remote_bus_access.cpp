// RemoteBusAccess and BusConnection against FakeBusServer: dwords and blocks, the B-less fallback, E replies, timeouts, hang-ups.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <numeric>
#include <vector>

#include "mtcr/remote/RemoteBusAccess.h"
#include "tests/remote/FakeBusServer.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;
using test::FakeBusOptions;
using test::FakeBusServer;

std::unique_ptr<RemoteBusAccess> open_remote(FakeBusServer& server, std::chrono::milliseconds timeout = 5000ms) {
  auto access = RemoteBusAccess::open(server.client(), "/dev/mst/mt4115_pciconf0", timeout);
  EXPECT_TRUE(access.has_value()) << access.error().message();
  return access ? std::move(access).value() : nullptr;
}

std::size_t count_letter(const std::vector<std::string>& requests, char letter) {
  std::size_t n = 0;
  for (const auto& r : requests) n += !r.empty() && r[0] == letter;
  return n;
}

TEST(RemoteBusAccess, OpensWithVersionAndNewStyleOpen) {
  FakeBusServer server;
  {
    auto access = open_remote(server);
    ASSERT_NE(access, nullptr);
    EXPECT_EQ(access->server_version(), "1.4");
    EXPECT_FALSE(access->opened_through_gateway());
    EXPECT_TRUE(access->costly_access());
    EXPECT_EQ(access->max_block_dwords(), 128u);
  }
  server.join();
  ASSERT_EQ(server.requests.size(), 3u);
  EXPECT_EQ(server.requests[0], "V");
  EXPECT_EQ(server.requests[1], "O 1 /dev/mst/mt4115_pciconf0");
  EXPECT_EQ(server.requests[2], "C");  // the destructor closes
}

TEST(RemoteBusAccess, ReadsAndWritesDwords) {
  FakeBusServer server;
  server.memory[0xf0014] = 0x209;
  {
    auto access = open_remote(server);
    ASSERT_NE(access, nullptr);
    EXPECT_EQ(access->read32(0xf0014).value(), 0x209u);
    ASSERT_TRUE(access->write32(0x1000, 0xcafef00d).has_value());
    EXPECT_EQ(access->read32(0x1000).value(), 0xcafef00du);
    EXPECT_EQ(access->read32(0x2000).value(), 0u);
  }
  server.join();
  EXPECT_EQ(server.memory[0x1000], 0xcafef00du);
  EXPECT_EQ(count_letter(server.requests, 'W'), 1u);
}

TEST(RemoteBusAccess, BlocksRoundTripInPiecesOf512Bytes) {
  FakeBusServer server;
  std::vector<std::uint32_t> values(300);
  std::iota(values.begin(), values.end(), 0xa0000000u);
  {
    auto access = open_remote(server);
    ASSERT_NE(access, nullptr);
    ASSERT_TRUE(access->write_block(0x4000, values).has_value());
    std::vector<std::uint32_t> back(values.size());
    ASSERT_TRUE(access->read_block(0x4000, back).has_value());
    EXPECT_EQ(back, values);
    EXPECT_EQ(access->has_block_read(), true);
    EXPECT_EQ(access->has_block_write(), true);
  }
  server.join();
  EXPECT_EQ(count_letter(server.requests, 'U'), 3u);  // 128 + 128 + 44 dwords
  EXPECT_EQ(count_letter(server.requests, 'B'), 3u);
  EXPECT_EQ(count_letter(server.requests, 'R'), 0u);
  EXPECT_EQ(count_letter(server.requests, 'W'), 0u);
  EXPECT_EQ(server.memory[0x4000 + 4 * 299], values[299]);
}

TEST(RemoteBusAccess, FallsBackToDwordsWhenTheServerHasNoBlocks) {
  FakeBusOptions options;
  options.block_commands = false;
  FakeBusServer server(options);
  const std::vector<std::uint32_t> values{1, 2, 3, 4, 5};
  {
    auto access = open_remote(server);
    ASSERT_NE(access, nullptr);
    ASSERT_TRUE(access->write_block(0x100, values).has_value());
    std::vector<std::uint32_t> back(values.size());
    ASSERT_TRUE(access->read_block(0x100, back).has_value());
    EXPECT_EQ(back, values);
    ASSERT_TRUE(access->read_block(0x100, back).has_value());  // asks B no more
    EXPECT_EQ(access->has_block_read(), false);
    EXPECT_EQ(access->has_block_write(), false);
  }
  server.join();
  EXPECT_EQ(count_letter(server.requests, 'B'), 1u);  // probed once
  EXPECT_EQ(count_letter(server.requests, 'U'), 1u);
  EXPECT_EQ(count_letter(server.requests, 'R'), 10u);
  EXPECT_EQ(count_letter(server.requests, 'W'), 5u);
  EXPECT_EQ(server.memory[0x110], 5u);
}

TEST(RemoteBusAccess, AnErrorReplyCarriesTheServersText) {
  FakeBusOptions options;
  options.failing_read = 0x8;
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  const auto r = access->read32(0x8);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_NE(r.error().message().find("Invalid offset"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("0x8"), std::string::npos) << r.error().message();
  EXPECT_TRUE(access->read32(0xc).has_value());  // an E reply leaves the stream in step
}

TEST(RemoteBusAccess, AMalformedReplyLeavesTheConnectionUnusable) {
  FakeBusOptions options;
  options.read_reply = "O 0x1 0x2";  // a B reply where an R reply belongs: out of step
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  const auto r = access->read32(0);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_NE(r.error().message().find("malformed"), std::string::npos) << r.error().message();
  const auto again = access->write32(0, 1);
  ASSERT_FALSE(again.has_value());
  EXPECT_NE(again.error().message().find("unusable"), std::string::npos) << again.error().message();
}

TEST(RemoteBusAccess, ABadDeviceNameIsRefusedBeforeSending) {
  FakeBusServer server;
  const auto r = RemoteBusAccess::open(server.client(), "two words", 1000ms);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
  server.join();
  EXPECT_TRUE(server.requests.empty());
}

TEST(RemoteBusAccess, AcceptsABareOkAsTheVersion) {
  FakeBusOptions options;
  options.version = "";  // "O": any O reply is accepted as a version
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  EXPECT_EQ(access->server_version(), "");
}

TEST(RemoteBusAccess, AnOpenRefusedByTheServerFails) {
  FakeBusOptions options;
  options.open_error = "No such device";
  FakeBusServer server(options);
  const auto r = RemoteBusAccess::open(server.client(), "mt4115_pciconf0", 1000ms);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_NE(r.error().message().find("No such device"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("mt4115_pciconf0"), std::string::npos) << r.error().message();
}

TEST(RemoteBusAccess, AServerThatNeverAnswersTimesOut) {
  FakeBusOptions options;
  options.silent_on = 'R';
  FakeBusServer server(options);
  auto access = open_remote(server, 200ms);
  ASSERT_NE(access, nullptr);
  const auto start = std::chrono::steady_clock::now();
  const auto r = access->read32(0);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Timeout);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 150ms);
  // The stream may now be out of step: later calls fail rather than take a stale reply.
  const auto again = access->read32(4);
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().code(), ErrorCode::Io);
}

TEST(RemoteBusAccess, AServerThatHangsUpIsAnIoError) {
  FakeBusOptions options;
  options.close_on = 'W';
  FakeBusServer server(options);
  auto access = open_remote(server);
  ASSERT_NE(access, nullptr);
  const auto r = access->write32(0, 1);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_NE(r.error().message().find("closed the connection"), std::string::npos) << r.error().message();
}

TEST(RemoteBusAccess, WorksOverLoopbackTcp) {
  FakeBusOptions options;
  options.tcp = true;
  FakeBusServer server(options);
  ASSERT_NE(server.port(), 0);
  server.memory[0xf0014] = 0x20d;
  auto connection = BusConnection::connect_tcp("localhost", server.port(), 2000ms);
  ASSERT_TRUE(connection.has_value()) << connection.error().message();
  auto access = RemoteBusAccess::open(std::move(connection).value(), "mt4119_pciconf0", 5000ms);
  ASSERT_TRUE(access.has_value()) << access.error().message();
  EXPECT_EQ((*access)->read32(0xf0014).value(), 0x20du);
}

TEST(BusConnection, ConnectingToAClosedPortFails) {
  std::uint16_t port = 0;
  {
    FakeBusOptions options;
    options.tcp = true;
    FakeBusServer server(options);  // a port that was free a moment ago, closed again
    port = server.port();
  }
  const auto r = BusConnection::connect_tcp("127.0.0.1", port, 2000ms);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::Io);
  EXPECT_NE(r.error().message().find(std::to_string(port)), std::string::npos) << r.error().message();
  EXPECT_FALSE(BusConnection::connect_tcp("no-such-host.invalid", 1, 2000ms).has_value());
}

// Two ends of a socketpair: ours as a BusConnection, the other as a raw fd.
struct Pair {
  Pair() {
    int fds[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    ours = BusConnection(fds[0]);
    raw = fds[1];
  }
  ~Pair() {
    if (raw >= 0) ::close(raw);
  }
  void put(const std::string& bytes) const { ASSERT_EQ(::write(raw, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size())); }
  BusConnection ours{-1};
  int raw = -1;
};

TEST(BusConnection, SplitsMessagesThatArriveTogetherAndJoinsOnesThatArriveInPieces) {
  Pair p;
  p.put(std::string("O 1.4\0O\0O 0x", 12));
  EXPECT_EQ(p.ours.receive(100, 1000ms).value(), "O 1.4");
  EXPECT_EQ(p.ours.receive(100, 1000ms).value(), "O");
  std::thread later([&p] {
    std::this_thread::sleep_for(50ms);
    p.put(std::string("00000209\0", 9));
  });
  EXPECT_EQ(p.ours.receive(100, 2000ms).value(), "O 0x00000209");
  later.join();
}

TEST(BusConnection, SendsOneNulAfterTheMessage) {
  Pair p;
  ASSERT_TRUE(p.ours.send("R 0xf0014").has_value());
  char buf[32] = {};
  ASSERT_EQ(::read(p.raw, buf, sizeof buf), 10);
  EXPECT_EQ(std::string(buf, 10), std::string("R 0xf0014\0", 10));
  const auto bad = p.ours.send(std::string("R\0", 2));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::InvalidArgument);
}

TEST(BusConnection, ReceiveLimitsTimeoutAndEof) {
  Pair p;
  p.put(std::string(300, 'x'));
  const auto big = p.ours.receive(100, 1000ms);
  ASSERT_FALSE(big.has_value());
  EXPECT_EQ(big.error().code(), ErrorCode::InvalidArgument);

  Pair q;
  const auto none = q.ours.receive(100, 100ms);
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code(), ErrorCode::Timeout);
  q.put("partial");
  ::close(q.raw);
  q.raw = -1;
  const auto eof = q.ours.receive(100, 1000ms);
  ASSERT_FALSE(eof.has_value());
  EXPECT_EQ(eof.error().code(), ErrorCode::Io);
  EXPECT_EQ(eof.error().message(), "the server closed the connection");
  // A send to a peer that is gone is an error, not SIGPIPE.
  EXPECT_FALSE(q.ours.send("V").has_value());
}

}  // namespace
}  // namespace openflint
