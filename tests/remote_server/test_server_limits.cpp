// mst server's limits and the client's answers to them: --max-sessions (a clean "E server busy"),
// a busy device and the tool's --lock-timeout, CR-space accesses outside the device refused as
// `mst mread` refuses them, an oversized reply (exit 4), and remote names the protocol cannot
// carry refused before ssh runs.
#include <atomic>
#include <chrono>
#include <thread>

#include "devices/DeviceCatalog.h"
#include "tests/remote/FakeBusServer.h"
#include "tests/remote_server/ServerFixture.h"

namespace openflint::test {
namespace {

using Clock = std::chrono::steady_clock;
using MstServerLimits = ServerFixture;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

TEST_F(MstServerLimits, MaxSessionsRefusesTheNextClientAndAToolRetriesWithinItsLockTimeout) {
  const auto port = start_server({"--max-sessions", "1"});
  ASSERT_NE(port, 0);
  auto first = connect(port);
  ASSERT_EQ(ask(first, "V"), "O 1.4");  // the one session
  auto second = connect(port);
  const auto refused = second.receive(kBusMaxReplyBytes, kReplyTimeout);
  ASSERT_TRUE(refused.has_value()) << refused.error().message();
  EXPECT_EQ(*refused, "E server busy");
  EXPECT_NE(audit_text().find("refused: server busy (1 sessions, at most 1)"), std::string::npos) << audit_text();
  const std::string name = "127.0.0.1:" + std::to_string(port) + "," + remote_name();
  // No wait: busy at once, exit 5, one line.
  const auto at_once = run_tool("flint", {"-d", name, "--lock-timeout", "0", "q"});
  EXPECT_EQ(at_once.exit_code, 5) << at_once.err;
  EXPECT_NE(at_once.err.find("server busy"), std::string::npos) << at_once.err;
  EXPECT_EQ(lines(at_once.err), 1u) << at_once.err;
  // The session ends while the tool waits: it gets in within its lock timeout.
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    first = BusConnection(-1);  // hangs up
  });
  const auto start = Clock::now();
  const auto waited = run_tool("flint", {"-d", name, "--lock-timeout", "20000", "q"});
  release.join();
  EXPECT_EQ(waited.exit_code, 0) << waited.err;
  EXPECT_GE(seconds_since(start), 0.5);
  EXPECT_NE(waited.out.find("FW Version"), std::string::npos) << waited.out;
}

TEST_F(MstServerLimits, ABusyDeviceIsWaitedForUpToTheLockTimeout) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto holder = connect(port);
  ASSERT_EQ(ask(holder, "O 1 " + remote_name()), "O 0");
  const std::string name = "127.0.0.1:" + std::to_string(port) + "," + remote_name();
  auto start = Clock::now();
  const auto timed_out = run_tool("flint", {"-d", name, "--lock-timeout", "400", "q"});
  const double took = seconds_since(start);
  EXPECT_EQ(timed_out.exit_code, 5) << timed_out.err;
  EXPECT_GE(took, 0.4) << "gave up before the lock timeout";
  EXPECT_LT(took, 10.0);
  EXPECT_TRUE(timed_out.err.starts_with("-E- ")) << timed_out.err;
  EXPECT_EQ(lines(timed_out.err), 1u) << timed_out.err;
  EXPECT_NE(timed_out.err.find("device busy"), std::string::npos) << timed_out.err;
  EXPECT_NE(timed_out.err.find("--lock-timeout"), std::string::npos) << "no remedy named: " << timed_out.err;
  // Released while the tool waits: it gets the device.
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    EXPECT_EQ(ask(holder, "C"), "O");
  });
  start = Clock::now();
  const auto waited = run_tool("flint", {"-d", name, "--lock-timeout", "20000", "q"});
  release.join();
  EXPECT_EQ(waited.exit_code, 0) << waited.err;
  EXPECT_GE(seconds_since(start), 0.6);
  EXPECT_NE(waited.out.find("FW Version"), std::string::npos) << waited.out;
}

TEST_F(MstServerLimits, CrSpaceAccessesOutsideTheDeviceAreRefusedAsMreadRefusesThem) {
  const auto info = find_device_by_sim_model("connectx4");
  ASSERT_TRUE(info.has_value());
  const std::uint32_t size = (*info)->cr_space.size;
  ASSERT_GT(size, 0u);
  const std::string end = "0x" + [&] {
    char text[16];
    std::snprintf(text, sizeof text, "%x", size);
    return std::string(text);
  }();
  // The local refusal, word for word.
  const auto local = run_tool("mst", {"mread", device_, end});
  ASSERT_EQ(local.exit_code, 2) << local.err;
  ASSERT_TRUE(local.err.starts_with("-E- ")) << local.err;
  const std::string message = local.err.substr(4, local.err.find('\n') - 4);
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto c = connect(port);
  ASSERT_EQ(ask(c, "O 1 " + remote_name()), "O 0");
  EXPECT_EQ(ask(c, "R " + end), "E " + message);
  EXPECT_EQ(ask(c, "W " + end + " 0x1"), "E " + message);
  // A block that starts inside and runs past the end, read or written.
  char last[16];
  std::snprintf(last, sizeof last, "0x%x", size - 4);
  const std::string straddle = ask(c, std::string("B ") + last + " 8");
  EXPECT_NE(straddle.find("is outside the CR-space of ConnectX-4"), std::string::npos) << straddle;
  EXPECT_TRUE(ask(c, std::string("U ") + last + " 8 0x1 0x2").starts_with("E address range")) << "U past the end";
  EXPECT_TRUE(ask(c, std::string("R ") + last).starts_with("O 0x"));  // the last dword is inside
  EXPECT_TRUE(ask(c, "R 0xf0014").starts_with("O 0x"));
}

TEST(RemoteReplies, AnOversizedReplyIsAMalformedReplyExit4) {
  FakeBusOptions options;
  options.tcp = true;
  options.read_reply = "O 0x" + std::string(2 * kBusMaxReplyBytes, '1');
  FakeBusServer server(options);
  ASSERT_NE(server.port(), 0);
  const auto r = run_tool("flint", {"-d", "127.0.0.1:" + std::to_string(server.port()) + ",mt4115_pciconf0", "q"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("longer than"), std::string::npos) << r.err;
}

TEST(RemoteNames, SshNamesTheProtocolCannotCarryAreRefusedBeforeSshRuns) {
  const TempDir dir;
  // A stand-in ssh that leaves a mark when it runs.
  const auto marker = dir / "ssh-ran";
  const auto fake_ssh = dir / "fake-ssh";
  {
    const std::string script = "#!/bin/sh\ntouch '" + marker.string() + "'\nexit 255\n";
    write_file(fake_ssh, std::vector<std::uint8_t>(script.begin(), script.end()));
    std::filesystem::permissions(fake_ssh, std::filesystem::perms::owner_all);
  }
  const std::string ssh = "OPENFLINT_SSH_COMMAND=" + fake_ssh.string();
  const auto flint_q = [&](const std::string& name, const std::vector<std::string>& env) {
    return run_command({bin("flint").string(), "-d", name, "--lock-timeout", "0", "q"}, env);
  };
  for (const std::string& bad :
       {std::string("ssh:node7/sim:/tmp/a b"), std::string("ssh:node7/dev\x01"), "ssh:node7/" + std::string(2000, 'd')}) {
    SCOPED_TRACE(bad.substr(0, 40));
    const auto r = flint_q(bad, {ssh});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("cannot be sent to a bus server"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(marker)) << "ssh ran for a name the protocol refuses";
  }
  // Set but empty: an error, not a silent "ssh".
  for (const char* blank : {"OPENFLINT_SSH_COMMAND=", "OPENFLINT_SSH_COMMAND=  "}) {
    const auto r = flint_q("ssh:node7/sim:/tmp/dev", {blank});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("OPENFLINT_SSH_COMMAND is set but empty"), std::string::npos) << r.err;
  }
  const auto no_mst = flint_q("ssh:node7/sim:/tmp/dev", {ssh, "OPENFLINT_REMOTE_MST="});
  EXPECT_EQ(no_mst.exit_code, 2) << no_mst.err;
  EXPECT_NE(no_mst.err.find("OPENFLINT_REMOTE_MST is set but empty"), std::string::npos) << no_mst.err;
  EXPECT_FALSE(std::filesystem::exists(marker));
  // The control: a good name does run the (stand-in) ssh.
  const auto good = flint_q("ssh:node7/sim:/tmp/dev", {ssh});
  EXPECT_NE(good.exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(marker)) << good.err;
}

}  // namespace
}  // namespace openflint::test
