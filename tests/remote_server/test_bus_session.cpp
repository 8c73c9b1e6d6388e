// BusSession over a socketpair: answers, audit lines, and the device lock released when the peer goes away.
#include <sys/socket.h>

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <thread>

#include "fwops/Device.h"
#include "mtcr/remote/BusConnection.h"
#include "remote/BusSession.h"
#include "remote/ClientNetwork.h"
#include "remote/ConnectionBusChannel.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr auto kTimeout = std::chrono::milliseconds(5000);

TEST(BusSession, ServesASocketpairAndReleasesTheDeviceAtEof) {
  TempDir dir;
  const auto r = run_tool("hcasim", {"create", "--model", "connectx4", (dir / "cx4").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string name = "sim:" + (dir / "cx4").string();
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  std::vector<std::string> audit;
  Result<void> ended;
  std::thread server([&] {
    ConnectionBusChannel channel{BusConnection(fds[0])};
    BusSessionOptions options;
    options.devices = {name};
    options.peer = "pair";
    options.audit = [&](std::string_view line) { audit.emplace_back(line); };
    BusSession session(channel, std::move(options));
    ended = session.run();
  });
  BusConnection client(fds[1]);
  const auto ask = [&](std::string_view text) {
    EXPECT_TRUE(client.send(text).has_value());
    auto reply = client.receive(kBusMaxReplyBytes, kTimeout);
    return reply ? *reply : "receive failed: " + reply.error().message();
  };
  EXPECT_EQ(ask("V"), "O 1.4");
  EXPECT_EQ(ask("W 0x20 1"), "E Not opened");
  EXPECT_EQ(ask("B 0x20 8"), "E Not opened");
  std::string at_name = name;
  std::replace(at_name.begin(), at_name.end(), '/', '@');
  EXPECT_EQ(ask("O 1 " + at_name), "O 0");
  EXPECT_EQ(ask("O 1 " + at_name), "E Already opened");
  EXPECT_TRUE(ask("R 0xf0014").starts_with("O 0x0")) << "hw id";
  EXPECT_EQ(ask("U 0x20 8 0x11 0x22"), "O");
  EXPECT_EQ(ask("B 0x20 8"), "O 0x00000011 0x00000022");
  EXPECT_EQ(ask("R 0x2"), ask("R 0x2"));  // whatever an unaligned read says, the session goes on
  // Held by the session: another open is refused.
  EXPECT_FALSE(open_device(name, BusSessionOptions::without_waiting()).has_value());
  client = BusConnection(-1);  // EOF
  server.join();
  ASSERT_FALSE(ended.has_value());
  EXPECT_TRUE(open_device(name, BusSessionOptions::without_waiting()).has_value());
  ASSERT_FALSE(audit.empty());
  EXPECT_EQ(audit.front(), "pair: connection opened");
  EXPECT_TRUE(audit.back().starts_with("pair: connection closed: ")) << audit.back();
  EXPECT_NE(std::find(audit.begin(), audit.end(), "pair: U " + name + " 0x20 8 bytes (first block write)"), audit.end());
}

TEST(ClientNetwork, ParsesCidrAndMatches) {
  auto n = ClientNetwork::parse("192.168.1.77/24");
  ASSERT_TRUE(n.has_value());
  EXPECT_TRUE(n->contains(0xc0a801fe));
  EXPECT_FALSE(n->contains(0xc0a802fe));
  auto host = ClientNetwork::parse("10.1.2.3");
  ASSERT_TRUE(host.has_value());
  EXPECT_TRUE(host->contains(0x0a010203));
  EXPECT_FALSE(host->contains(0x0a010204));
  EXPECT_TRUE(ClientNetwork::parse("0.0.0.0/0")->contains(0x01020304));
  for (const char* bad : {"10.0.0.0/33", "10.0.0/8", "fe80::1/129", "10.0.0.0/", "x", "::1/-1", "[::1]"})
    EXPECT_FALSE(ClientNetwork::parse(bad).has_value()) << bad;
}

PeerAddress v6(const char* text) {
  PeerAddress out{};
  EXPECT_EQ(::inet_pton(AF_INET6, text, out.data()), 1) << text;
  return out;
}

TEST(ClientNetwork, Ipv6PrefixesAndIpv4MappedPeers) {
  auto ula = ClientNetwork::parse("fd00:1:2::/48");
  ASSERT_TRUE(ula.has_value()) << ula.error().message();
  EXPECT_TRUE(ula->contains(v6("fd00:1:2:ffff::9")));
  EXPECT_FALSE(ula->contains(v6("fd00:1:3::9")));
  EXPECT_FALSE(ula->contains(0x7f000001));  // an IPv4 peer is not in an IPv6 network
  auto loop = ClientNetwork::parse("::1");
  ASSERT_TRUE(loop.has_value());
  EXPECT_TRUE(loop->contains(v6("::1")));
  EXPECT_FALSE(loop->contains(v6("::2")));
  // A dual-stack socket reports IPv4 peers as ::ffff:A.B.C.D: IPv4 networks match them.
  auto lan = ClientNetwork::parse("192.168.1.0/24");
  ASSERT_TRUE(lan.has_value());
  EXPECT_TRUE(lan->contains(v6("::ffff:192.168.1.9")));
  EXPECT_FALSE(lan->contains(v6("::ffff:192.168.2.9")));
  EXPECT_TRUE(ClientNetwork::parse("::/0")->contains(v6("2001:db8::1")));
  // An odd prefix length cuts inside a byte.
  auto odd = ClientNetwork::parse("2001:db8:8000::/33");
  ASSERT_TRUE(odd.has_value());
  EXPECT_TRUE(odd->contains(v6("2001:db8:ffff::1")));
  EXPECT_FALSE(odd->contains(v6("2001:db8:7fff::1")));
}

}  // namespace
}  // namespace openflint::test
