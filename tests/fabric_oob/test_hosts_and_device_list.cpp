// The pieces under ibfwmgr --hosts: the hosts file grammar (line numbers) and the strict L client.
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <algorithm>
#include <string>
#include <thread>

#include "fabric/HostsFile.h"
#include "image/NodeGuid.h"
#include "mtcr/remote/BusDeviceList.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr auto kTimeout = std::chrono::milliseconds(2000);

TEST(HostsFile, CommentsBlankLinesAndBothTransports) {
  auto hosts = parse_hosts("# lab\n\n  mgmt1  \nmgmt2:4000 # spare port\r\nssh:admin@mgmt3\n[::1]:23109\n", "h");
  ASSERT_TRUE(hosts) << hosts.error().message();
  ASSERT_EQ(hosts->size(), 4u);
  EXPECT_EQ((*hosts)[0].host, "mgmt1");
  EXPECT_EQ((*hosts)[0].port, 23108);
  EXPECT_EQ((*hosts)[1].port, 4000);
  EXPECT_EQ((*hosts)[2].transport, RemoteTransport::Ssh);
  EXPECT_EQ((*hosts)[2].user, "admin");
  EXPECT_EQ((*hosts)[3].host, "::1");
  auto empty = parse_hosts("# nothing\n\n", "h");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
}

TEST(HostsFile, TheFirstBadLineIsNamed) {
  for (const auto& [text, line] : {std::pair{"a\nb:0\n", ":2:"}, std::pair{"\n\n\nhost:x\n", ":4:"},
                                   std::pair{"ssh:\n", ":1:"}, std::pair{"a b\n", ":1:"}}) {
    auto hosts = parse_hosts(text, "hosts.txt");
    ASSERT_FALSE(hosts) << text;
    EXPECT_EQ(hosts.error().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(hosts.error().message().find(std::string("hosts.txt") + line), std::string::npos)
        << text << " -> " << hosts.error().message();
  }
}

// The GUID a host's device is matched to its fabric node by.
TEST(NodeGuid, BaseGuidThenTheGuidSectionsFirstEntryBlankIsNone) {
  ImageQuery fs3;
  fs3.base_guid = UidRange{0x0002c90300b00000ull, 8};
  EXPECT_EQ(node_guid(fs3), 0x0002c90300b00000ull);
  ImageQuery fs2;
  fs2.uids = {0x0002c90300a02000ull, 0x0002c90300a02001ull};
  EXPECT_EQ(node_guid(fs2), 0x0002c90300a02000ull);
  ImageQuery blank;
  blank.base_guid = UidRange{~std::uint64_t{0}, 8};
  EXPECT_EQ(node_guid(blank), std::nullopt);
  EXPECT_EQ(node_guid(ImageQuery{}), std::nullopt);
}

// A server end on a socketpair: answers the one request with `replies` (each NUL-framed).
class ListPair : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    client_.emplace(fds[0]);
    server_.emplace(fds[1]);
  }
  void TearDown() override {
    if (thread_.joinable()) thread_.join();
  }
  void answer(std::vector<std::string> replies) {
    thread_ = std::thread([this, replies] {
      auto request = server_->receive(64, kTimeout);
      request_ = request ? *request : "";
      for (const auto& r : replies) (void)server_->send(r);
    });
  }
  std::optional<BusConnection> client_;
  std::optional<BusConnection> server_;
  std::thread thread_;
  std::string request_;
};

TEST_F(ListPair, ReadsTheCountedNames) {
  answer({"O 2", "sim:/var/lib/sims/cx4", "mt4115_pciconf0"});
  auto names = list_bus_devices(*client_, kTimeout);
  ASSERT_TRUE(names) << names.error().message();
  EXPECT_EQ(*names, (std::vector<std::string>{"sim:/var/lib/sims/cx4", "mt4115_pciconf0"}));
  thread_.join();
  EXPECT_EQ(request_, "L");
}

TEST_F(ListPair, AnEmptyListIsFine) {
  answer({"O 0"});
  auto names = list_bus_devices(*client_, kTimeout);
  ASSERT_TRUE(names) << names.error().message();
  EXPECT_TRUE(names->empty());
}

TEST_F(ListPair, TooManyDevicesIsRefusedBeforeReadingThem) {
  answer({"O " + std::to_string(kBusMaxListedDevices + 1)});
  auto names = list_bus_devices(*client_, kTimeout);
  ASSERT_FALSE(names);
  EXPECT_NE(names.error().message().find("lists 257 devices"), std::string::npos) << names.error().message();
}

TEST_F(ListPair, BadNamesAreRefused) {
  answer({"O 1", "two words"});
  auto names = list_bus_devices(*client_, kTimeout);
  ASSERT_FALSE(names);
  EXPECT_NE(names.error().message().find("name 1 of 1"), std::string::npos) << names.error().message();
}

TEST_F(ListPair, AnOverlongNameIsRefused) {
  answer({"O 1", std::string(kBusMaxDeviceNameBytes + 1, 'x')});
  EXPECT_FALSE(list_bus_devices(*client_, kTimeout));
}

TEST_F(ListPair, AShortListTimesOut) {
  answer({"O 2", "only-one"});
  auto names = list_bus_devices(*client_, std::chrono::milliseconds(300));
  ASSERT_FALSE(names);
  EXPECT_NE(names.error().message().find("name 2 of 2"), std::string::npos) << names.error().message();
}

TEST_F(ListPair, TheServersErrorIsPassedOn) {
  answer({"E Invalid command"});
  auto names = list_bus_devices(*client_, kTimeout);
  ASSERT_FALSE(names);
  EXPECT_NE(names.error().message().find("Invalid command"), std::string::npos) << names.error().message();
}

// Before the fabric is touched: a missing archive is reported as such, and a port that cannot be
// opened gives our one line, not the InfiniBand libraries' own lines before it. No fabric needed.
TEST(IbfwmgrFirstErrors, AMissingArchiveThenAPortThatCannotOpenOneLineEach) {
  TempDir dir;
  const auto missing = (dir.path() / "missing.mfa").string();
  auto r = run_tool("ibfwmgr", {"--ca", "nosuch_ca0", "update", "--archive", missing, "-y"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.err.rfind("-E- cannot open firmware package " + missing, 0), 0u) << r.err;
  EXPECT_EQ(r.err.find("discovery"), std::string::npos) << r.err;
  r = run_tool("ibfwmgr", {"--ca", "nosuch_ca0", "list"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.err.rfind("-E- ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace openflint::test
