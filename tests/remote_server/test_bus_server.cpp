// BusServer in-process: the session bound (a connection beyond it gets "E server busy"), the idle
// timeout, and stop() ending a server whose sessions are still connected.
#include <gtest/gtest.h>

#include <thread>

#include "mtcr/remote/BusConnection.h"
#include "remote/BusServer.h"

namespace openflint::test {
namespace {

constexpr auto kTimeout = std::chrono::milliseconds(5000);

std::string ask(BusConnection& c, std::string_view request) {
  if (!c.send(request)) return "send failed";
  auto reply = c.receive(kBusMaxReplyBytes, kTimeout);
  return reply ? *reply : "receive failed: " + reply.error().message();
}

TEST(BusServer, RefusesConnectionsBeyondTheBoundAndStops) {
  BusServerOptions options;
  options.port = 0;
  options.max_sessions = 1;
  options.devices = {"sim:/nowhere"};
  auto server = BusServer::listen(options);
  ASSERT_TRUE(server.has_value()) << server.error().message();
  ASSERT_NE((*server)->port(), 0);
  Result<void> served;
  std::thread loop([&] { served = (*server)->serve(); });
  auto first = BusConnection::connect_tcp("127.0.0.1", (*server)->port(), kTimeout);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(ask(*first, "V"), "O 1.4");
  auto second = BusConnection::connect_tcp("127.0.0.1", (*server)->port(), kTimeout);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->receive(kBusMaxReplyBytes, kTimeout).value(), "E server busy");
  EXPECT_EQ(ask(*first, "V"), "O 1.4");  // the first session is unaffected
  (*server)->stop();                      // with the first client still connected
  loop.join();
  EXPECT_TRUE(served.has_value());
  auto after = first->receive(kBusMaxReplyBytes, kTimeout);
  EXPECT_FALSE(after.has_value());  // its session was shut down
}

TEST(BusServer, ClosesIdleSessions) {
  BusServerOptions options;
  options.port = 0;
  options.idle_timeout = std::chrono::milliseconds(200);
  auto server = BusServer::listen(options);
  ASSERT_TRUE(server.has_value()) << server.error().message();
  std::thread loop([&] { (void)(*server)->serve(); });
  auto c = BusConnection::connect_tcp("127.0.0.1", (*server)->port(), kTimeout);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(ask(*c, "V"), "O 1.4");
  auto reply = c->receive(kBusMaxReplyBytes, kTimeout);  // nothing asked: the server hangs up
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(reply.error().code(), ErrorCode::Io) << reply.error().message();
  (*server)->stop();
  loop.join();
}

TEST(BusServer, RefusesAnOpenListenWithoutAllowList) {
  BusServerOptions options;
  options.listen_address = "0.0.0.0";
  options.port = 0;
  auto server = BusServer::listen(options);
  ASSERT_FALSE(server.has_value());
  EXPECT_EQ(server.error().code(), ErrorCode::InvalidArgument);
  options.allow.push_back(ClientNetwork::parse("127.0.0.0/8").value());
  EXPECT_TRUE(BusServer::listen(options).has_value());
}

TEST(BusServer, ListensOnIpv6LoopbackAndChecksIpv6AllowLists) {
  BusServerOptions options;
  options.listen_address = "::1";
  options.port = 0;
  auto server = BusServer::listen(options);
  if (!server && server.error().message().find("Cannot assign") != std::string::npos)
    GTEST_SKIP() << "this host has no IPv6 loopback: " << server.error().message();
  ASSERT_TRUE(server.has_value()) << server.error().message();
  std::thread loop([&] { (void)(*server)->serve(); });
  auto c = BusConnection::connect_tcp("::1", (*server)->port(), kTimeout);
  ASSERT_TRUE(c.has_value()) << c.error().message();
  EXPECT_EQ(ask(*c, "V"), "O 1.4");
  (*server)->stop();
  loop.join();

  // Any IPv6 address but loopback needs an allow-list, as IPv4 does; a peer outside it is closed.
  options.listen_address = "::";
  EXPECT_FALSE(BusServer::listen(options).has_value());
  options.allow.push_back(ClientNetwork::parse("fd00::/8").value());
  auto guarded = BusServer::listen(options);
  ASSERT_TRUE(guarded.has_value()) << guarded.error().message();
  std::thread guarded_loop([&] { (void)(*guarded)->serve(); });
  auto outsider = BusConnection::connect_tcp("::1", (*guarded)->port(), kTimeout);
  ASSERT_TRUE(outsider.has_value()) << outsider.error().message();
  auto refused = outsider->receive(kBusMaxReplyBytes, kTimeout);
  EXPECT_FALSE(refused.has_value()) << "::1 is outside fd00::/8 but got: " << *refused;
  (*guarded)->stop();
  guarded_loop.join();
}

}  // namespace
}  // namespace openflint::test
