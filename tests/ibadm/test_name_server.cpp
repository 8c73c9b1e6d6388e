// The name server's protocol (mtcr/remote/NameProtocol), its directory (fabric/NameDirectory) and its listener
// (fabric/NameServer) answering mtcr/remote/NameClient, without a fabric.
#include <gtest/gtest.h>

#include <thread>

#include "devices/DeviceCatalog.h"
#include "fabric/NameDirectory.h"
#include "fabric/NameServer.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/NameClient.h"
#include "mtcr/remote/NameProtocol.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

TEST(NameProtocol, RequestsRoundTrip) {
  NameRequest lookup = name_request(NameCommand::Lookup);
  lookup.name = "spine-1";
  NameRequest by_guid = name_request(NameCommand::Query);
  by_guid.by_guid = true;
  by_guid.guid = 0x0002c90300b00001ull;
  NameRequest by_lid = name_request(NameCommand::Query);
  by_lid.lid = 65535;
  for (const NameRequest& r : {name_request(NameCommand::Version), name_request(NameCommand::List),
                               name_request(NameCommand::Refresh), lookup, by_guid, by_lid}) {
    auto back = parse_name_request(format_name_request(r));
    ASSERT_TRUE(back) << format_name_request(r) << ": " << back.error().message();
    EXPECT_EQ(*back, r) << format_name_request(r);
  }
  EXPECT_EQ(format_name_request(by_guid), "Q 0x0002c90300b00001");
}

TEST(NameProtocol, TheParserIsStrict) {
  for (const char* bad : {"", "X", "V ", "L x", "N", "N ", "N  a", "N a b", "Q", "Q 0", "Q 65536", "Q 012", "Q 0x",
                          "Q 0x12345678901234567", "Q 0xzz", "Q -1", "N a\tb", "v"}) {
    auto r = parse_name_request(bad);
    EXPECT_FALSE(r) << "'" << bad << "' parsed";
    if (!r) {
      EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
    }
  }
  EXPECT_FALSE(parse_name_request("N " + std::string(kNameMaxNameBytes + 1, 'a')));
  EXPECT_TRUE(parse_name_request("N " + std::string(kNameMaxNameBytes, 'a')));
  EXPECT_FALSE(parse_name_request("N " + std::string(300, 'a'))) << "past the request bound";
}

TEST(NameProtocol, EntriesRoundTrip) {
  const NameEntry oob{.name = "host-1", .guid = 0x0002c90300c10000ull, .lid = 0, .device = "127.0.0.1:4000,sim:@tmp@d",
                      .remote = "127.0.0.1:4000,sim:@tmp@d"};
  const NameEntry inband{.name = "spine-1", .guid = 2, .lid = 7, .device = "lid-7", .remote = {}};
  for (const NameEntry& e : {oob, inband}) {
    auto back = parse_name_entry(format_name_entry(e));
    ASSERT_TRUE(back) << format_name_entry(e) << ": " << back.error().message();
    EXPECT_EQ(*back, e);
  }
  EXPECT_EQ(format_name_entry(inband), "spine-1 0x0000000000000002 7 lid-7 -");
  for (const char* bad : {"a 0x1 1 lid-1", "a 1 1 lid-1 -", "a 0x1 x lid-1 -", "a  0x1 1 lid-1 -", "a 0x1 1 lid-1 - extra"})
    EXPECT_FALSE(parse_name_entry(bad)) << bad;
}

std::vector<NameEntry> sample_entries() {
  return {NameEntry{.name = "spine-1", .guid = 0x10, .lid = 3, .device = "lid-3", .remote = {}},
          NameEntry{.name = "host", .guid = 0x20, .lid = 4, .device = "h:1,a", .remote = "h:1,a"},
          NameEntry{.name = "host", .guid = 0x21, .lid = 5, .device = "lid-5", .remote = {}}};
}

TEST(NameDirectory, SharedNamesAreQualifiedAndTheBareNameIsAmbiguous) {
  const auto d = NameDirectory::from_entries(sample_entries());
  auto spine = d.lookup("spine-1");
  ASSERT_TRUE(spine) << spine.error().message();
  EXPECT_EQ(spine->device, "lid-3");
  auto host = d.lookup("host");
  ASSERT_FALSE(host);
  EXPECT_EQ(host.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(host.error().message(), "ambiguous: host is host/0x0000000000000020, host/0x0000000000000021");
  auto one = d.lookup("host/0x0000000000000021");
  ASSERT_TRUE(one) << one.error().message();
  EXPECT_EQ(one->lid, 5);
  EXPECT_EQ(d.by_guid(0x20)->device, "h:1,a");
  EXPECT_EQ(d.by_lid(3)->name, "spine-1");
  EXPECT_EQ(d.lookup("leaf-9").error().code(), ErrorCode::NotFound);
  EXPECT_EQ(d.by_lid(99).error().code(), ErrorCode::NotFound);
}

TEST(NameDirectory, JoinsTheSweepTheBusServersAndTheNameMap) {
  const FabricNode swept_oob{.type = FabricNode::Type::Hca, .guid = 0xa1, .lid = 1, .description = "Hca1 HCA-1",
                             .vendor_id = 0x2c9, .device_id = 0x1013, .local = true};
  const FabricNode swept{.type = FabricNode::Type::Switch, .guid = 0xb2, .lid = 2, .description = "Switch1",
                         .vendor_id = 0x2c9, .device_id = 0xcb84, .local = false};
  RemoteHostStatus host;
  host.host = RemoteHost{.transport = RemoteTransport::Tcp, .user = {}, .host = "127.0.0.1", .port = 4000};
  const DeviceInfo* info = &all_devices().front();
  for (std::uint64_t guid : {0xa1ull, 0xc3ull}) {
    RemoteDeviceStatus d;
    d.name = "127.0.0.1:4000,sim:@d" + std::to_string(guid);
    d.info = info;
    d.node_guid = guid;
    host.devices.push_back(d);
  }
  RemoteDeviceStatus broken;
  broken.name = "127.0.0.1:4000,sim:@gone";
  broken.error = "cannot open";
  host.devices.push_back(broken);
  TempDir dir;
  const std::string map = "spine-1 0xb2\noob-only 0xc3\n";
  write_file(dir / "names", std::vector<std::uint8_t>(map.begin(), map.end()));
  auto naming = SystemNaming::load({.names = (dir / "names").string(), .topology = {}});
  ASSERT_TRUE(naming) << naming.error().message();
  const auto d = join_names({swept_oob, swept}, {host}, *naming, {});
  ASSERT_EQ(d.entries().size(), 3u);
  auto hca1 = d.lookup("Hca1");
  ASSERT_TRUE(hca1) << hca1.error().message();
  EXPECT_EQ(hca1->device, "127.0.0.1:4000,sim:@d161") << "out-of-band first, matched by GUID";
  EXPECT_EQ(hca1->remote, hca1->device);
  EXPECT_EQ(hca1->lid, 1);
  EXPECT_FALSE(d.lookup("Switch1")) << "the name map's name wins over the description";
  auto sw = d.lookup("spine-1");
  ASSERT_TRUE(sw) << sw.error().message();
  EXPECT_EQ(sw->device, "lid-2");
  EXPECT_TRUE(sw->remote.empty());
  auto alone = d.by_guid(0xc3);
  ASSERT_TRUE(alone) << alone.error().message();
  EXPECT_EQ(alone->name, "oob-only") << "a served device no sweep saw, named by the map";
  EXPECT_EQ(alone->lid, 0);
  ASSERT_EQ(d.problems().size(), 1u);
  EXPECT_NE(d.problems()[0].find("cannot open"), std::string::npos);
}

class NameServerTest : public ::testing::Test {
 protected:
  void start(std::function<NameDirectory()> collect, std::size_t max_sessions = 4) {
    NameServerOptions options;
    options.port = 0;
    options.max_sessions = max_sessions;
    options.collect = std::move(collect);
    auto server = NameServer::listen(std::move(options));
    ASSERT_TRUE(server) << server.error().message();
    server_ = std::move(*server);
    thread_ = std::thread([this] { EXPECT_TRUE(server_->serve()); });
  }
  void TearDown() override {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }
  RemoteHost address() const {
    return RemoteHost{.transport = RemoteTransport::Tcp, .user = {}, .host = "127.0.0.1", .port = server_->port()};
  }
  std::unique_ptr<NameServer> server_;
  std::thread thread_;
};

TEST_F(NameServerTest, AnswersTheClient) {
  int collections = 0;
  ASSERT_NO_FATAL_FAILURE(start([&collections] {
    ++collections;
    auto entries = sample_entries();
    if (collections > 1) entries.push_back(NameEntry{.name = "leaf-1", .guid = 0x30, .lid = 9, .device = "lid-9", .remote = {}});
    return NameDirectory::from_entries(entries);
  }));
  auto client = NameClient::connect(address());
  ASSERT_TRUE(client) << client.error().message();
  auto spine = client->lookup("spine-1");
  ASSERT_TRUE(spine) << spine.error().message();
  EXPECT_EQ(spine->device, "lid-3");
  EXPECT_EQ(client->query_guid(0x20)->device, "h:1,a");
  EXPECT_EQ(client->query_lid(3)->name, "spine-1");
  auto missing = client->lookup("leaf-1");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::NotFound) << missing.error().message();
  auto ambiguous = client->lookup("host");
  ASSERT_FALSE(ambiguous);
  EXPECT_EQ(ambiguous.error().code(), ErrorCode::InvalidArgument) << ambiguous.error().message();
  auto all = client->list();
  ASSERT_TRUE(all) << all.error().message();
  EXPECT_EQ(all->size(), 3u);
  auto refreshed = client->refresh();
  ASSERT_TRUE(refreshed) << refreshed.error().message();
  EXPECT_EQ(*refreshed, 4u);
  EXPECT_EQ(collections, 2);
  EXPECT_EQ(client->lookup("leaf-1")->lid, 9);
}

TEST_F(NameServerTest, BadAndOversizedRequestsAndTooManySessions) {
  ASSERT_NO_FATAL_FAILURE(start([] { return NameDirectory::from_entries(sample_entries()); }, 1));
  auto c = BusConnection::connect_tcp("127.0.0.1", server_->port(), std::chrono::seconds(5));
  ASSERT_TRUE(c) << c.error().message();
  ASSERT_TRUE(c->send("Z"));
  auto reply = c->receive(kNameMaxReplyBytes, std::chrono::seconds(5));
  ASSERT_TRUE(reply) << reply.error().message();
  EXPECT_EQ(*reply, "E bad name request: unknown command");
  ASSERT_TRUE(c->send("V"));
  EXPECT_EQ(*c->receive(kNameMaxReplyBytes, std::chrono::seconds(5)), "O openflint-names 1") << "the session goes on";
  // A second client past max_sessions: "E server busy", then closed.
  auto second = BusConnection::connect_tcp("127.0.0.1", server_->port(), std::chrono::seconds(5));
  ASSERT_TRUE(second) << second.error().message();
  auto busy = second->receive(kNameMaxReplyBytes, std::chrono::seconds(5));
  ASSERT_TRUE(busy) << busy.error().message();
  EXPECT_EQ(*busy, "E server busy");
  // No NUL within the bound: answered and closed.
  ASSERT_TRUE(c->send(std::string(kNameMaxRequestBytes + 10, 'N')));
  auto too_long = c->receive(kNameMaxReplyBytes, std::chrono::seconds(5));
  ASSERT_TRUE(too_long) << too_long.error().message();
  EXPECT_NE(too_long->find("longer than"), std::string::npos) << *too_long;
  auto closed = c->receive(kNameMaxReplyBytes, std::chrono::seconds(5));
  ASSERT_FALSE(closed) << "closed after: " << *closed;
  EXPECT_EQ(closed.error().code(), ErrorCode::Io) << closed.error().message();
}

}  // namespace
}  // namespace openflint::test
