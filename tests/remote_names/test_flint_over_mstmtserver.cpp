// End to end: our flint queries a simulated ConnectX-4 that the Debian mstmtserver serves from a mount namespace, by its remote name.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "tests/remote_interop/MstmtserverFixture.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;

// mstflint's server has no block commands: every dword of the query is one round trip.
constexpr int kQueryTimeoutSeconds = 300;
constexpr int kServerLifetimeSeconds = kQueryTimeoutSeconds + 60;  // `timeout` ends a server we lost
constexpr auto kRefusedBound = 5s;

class FlintOverMstmtserver : public test::MstmtserverFixture {
 protected:
  void SetUp() override {
    MstmtserverFixture::SetUp();
    server_lifetime_seconds_ = kServerLifetimeSeconds;
  }

  // Our flint with `args`, ended by `timeout` should it hang.
  static test::CommandResult timed_flint(const std::vector<std::string>& args, int timeout_s) {
    std::vector<std::string> argv{"timeout", std::to_string(timeout_s), test::bin("flint").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run_command(argv);
  }
};

TEST_F(FlintOverMstmtserver, QueryReadsTheImageThroughTheRemoteName) {
  if (!serve_device() || !start_mstmtserver()) return;
  const std::string expected = image_version(test::sample_image("connectx4-old"));
  ASSERT_FALSE(expected.empty());
  const std::string name = "127.0.0.1:" + std::to_string(port_) + ",@dev@mst@mt4115_pciconf0";
  const auto start = std::chrono::steady_clock::now();
  const auto r = timed_flint({"-d", name, "q"}, kQueryTimeoutSeconds);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "flint -d " << name << " q: " << seconds << " s\n";
  RecordProperty("query_seconds", std::to_string(seconds));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << "\nserver log tail: "
                            << server_log().substr(server_log().size() > 2000 ? server_log().size() - 2000 : 0);
  EXPECT_EQ(test::query_field(r.out, "FW Version"), expected) << r.out;
  EXPECT_TRUE(test::query_field(r.out, "Device").starts_with("ConnectX-4 ")) << r.out;
  // The reads went through the server (its -d log shows each request), one R per dword.
  const std::string log = server_log();
  EXPECT_NE(log.find("<- R 0xf0014"), std::string::npos) << log.substr(0, 2000);
  std::size_t reads = 0;
  for (std::size_t at = log.find("<- R "); at != std::string::npos; at = log.find("<- R ", at + 1)) ++reads;
  std::cout << "server answered " << reads << " R requests\n";
  // No MGIR over the legacy protocol: flint must not invent a running version. Our client asked
  // for openflint's register channel once (the bare G probe), got "E Invalid command" and went on.
  EXPECT_TRUE(test::query_field(r.out, "FW Version(Running)").empty()) << r.out;
  std::size_t probes = 0;
  for (std::size_t at = log.find("<- G"); at != std::string::npos; at = log.find("<- G", at + 1)) ++probes;
  EXPECT_EQ(probes, 1u) << log.substr(0, 2000);
}

TEST_F(FlintOverMstmtserver, NothingListeningFailsWithOneLine) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = timed_flint({"-d", "127.0.0.1:1,dev", "q"}, 60);
  EXPECT_LT(std::chrono::steady_clock::now() - start, kRefusedBound);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, 124) << "flint hung until `timeout` ended it";
  EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
  EXPECT_NE(r.err.find("127.0.0.1:1,dev"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace openflint
