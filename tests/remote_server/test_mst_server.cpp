// mst server: a simulated ConnectX-4 served over loopback TCP with the legacy bus protocol and
// driven by RemoteBusAccess and raw requests: access, locking between sessions, bad requests,
// --read-only, the unsafe-listen refusal, 50 concurrent clients, and --stdio through pipes.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <numeric>

#include "core/ChildProcess.h"
#include "sim/SimDevice.h"
#include "tests/remote_server/ServerFixture.h"

namespace openflint::test {
namespace {

using MstServer = ServerFixture;

TEST_F(MstServer, AnswersVersionAndListsTheServedDevices) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto c = connect(port);
  EXPECT_EQ(ask(c, "V"), "O 1.4");
  EXPECT_EQ(ask(c, "L"), "O 1");
  auto name = c.receive(kBusMaxReplyBytes, kReplyTimeout);
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ(*name, device_);
  EXPECT_EQ(ask(c, "R 0xf0014"), "E Not opened");
  EXPECT_EQ(ask(c, "P"), "O");
  EXPECT_EQ(ask(c, "A 2"), "O");
  // Only the served devices can be opened.
  const std::string refused = ask(c, "O 1 sim:@etc");
  EXPECT_TRUE(refused.starts_with("E no such device: sim:/etc")) << refused;
}

TEST_F(MstServer, ReadsTheHwIdAndRoundTripsDwordsAndBlocks) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto remote = open_remote(port);
  ASSERT_TRUE(remote.has_value()) << remote.error().message();
  RegisterAccess& access = **remote;
  EXPECT_EQ((*remote)->server_version(), "1.4");
  auto hw = access.read32(kHwIdAddress);
  ASSERT_TRUE(hw.has_value()) << hw.error().message();
  EXPECT_EQ(*hw & 0xffff, kConnectX4HwId);
  ASSERT_TRUE(access.write32(0x20, 0xdeadbeef).has_value());
  EXPECT_EQ(access.read32(0x20).value(), 0xdeadbeefu);
  // 300 dwords: three U and three B requests (128 dwords each at most).
  std::vector<std::uint32_t> out(300);
  std::iota(out.begin(), out.end(), 0x5a000000u);
  ASSERT_TRUE(access.write_block(0x8000, out).has_value());
  std::vector<std::uint32_t> in(out.size());
  ASSERT_TRUE(access.read_block(0x8000, in).has_value());
  EXPECT_EQ(in, out);
  EXPECT_EQ((*remote)->has_block_read(), std::optional<bool>(true));
  EXPECT_EQ((*remote)->has_block_write(), std::optional<bool>(true));
  remote->reset();
  // The audit log names the open and the writes (address and size), not the data.
  const std::string audit = audit_text();
  EXPECT_NE(audit.find("O " + device_), std::string::npos) << audit;
  EXPECT_NE(audit.find("W " + device_ + " 0x20 4 bytes (first dword write)"), std::string::npos) << audit;
  EXPECT_NE(audit.find("U " + device_ + " 0x8000 512 bytes (first block write)"), std::string::npos) << audit;
  EXPECT_EQ(audit.find("U " + device_ + " 0x8200"), std::string::npos) << audit;  // later ones are counted
  EXPECT_NE(audit.find("closed " + device_ + ": 4 writes, 1204 bytes written"), std::string::npos) << audit;
  EXPECT_EQ(audit.find("deadbeef"), std::string::npos) << audit;
  // The close saved what the client wrote: the simulated device's state on disk has it.
  auto saved = sim::SimDevice::load_state(device_dir_);
  ASSERT_TRUE(saved.has_value()) << saved.error().message();
  EXPECT_EQ((*saved)->peek32(0x20), 0xdeadbeefu);
}

TEST_F(MstServer, ASecondClientIsRefusedWhileTheFirstHoldsTheDevice) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto first = open_remote(port);
  ASSERT_TRUE(first.has_value()) << first.error().message();
  auto second = open_remote(port);
  ASSERT_FALSE(second.has_value());
  EXPECT_NE(second.error().message().find("busy"), std::string::npos) << second.error().message();
  first->reset();  // sends C and closes
  auto third = open_remote(port);
  ASSERT_TRUE(third.has_value()) << third.error().message();
  EXPECT_EQ(((*third)->read32(kHwIdAddress).value()) & 0xffff, kConnectX4HwId);
}

TEST_F(MstServer, AClientThatVanishesWithoutCloseReleasesTheDevice) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  {
    auto c = connect(port);
    ASSERT_EQ(ask(c, "O 1 " + remote_name()), "O 0");
    ASSERT_TRUE(ask(c, "R 0xf0014").starts_with("O 0x"));
  }  // the socket closes, no C
  Result<std::unique_ptr<RemoteBusAccess>> again = make_error(ErrorCode::Busy, "not tried");
  for (int i = 0; i < 100 && !again; ++i) {
    again = open_remote(port);
    if (!again) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(again.has_value()) << again.error().message();
  EXPECT_NE(audit_text().find("connection ended"), std::string::npos) << audit_text();
}

TEST_F(MstServer, BadRequestsGetAnErrorAndTheServerGoesOn) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto c = connect(port);
  for (const char* bad : {"", "X", "R", "R zz", "R 0x4 5", "W 0x20", "B 0x0 9999", "O", "V  "}) {
    SCOPED_TRACE(bad);
    const std::string reply = ask(c, bad);
    EXPECT_TRUE(reply.starts_with("E ")) << reply;
    EXPECT_EQ(reply.find('\n'), std::string::npos) << reply;
  }
  EXPECT_EQ(ask(c, "V"), "O 1.4");  // the same session still serves
  // Oversized: an "E" reply, then the connection is closed.
  auto big = connect(port);
  ASSERT_TRUE(big.send("R " + std::string(4000, '1')).has_value());
  auto reply = big.receive(kBusMaxReplyBytes, kReplyTimeout);
  ASSERT_TRUE(reply.has_value()) << reply.error().message();
  EXPECT_TRUE(reply->starts_with("E ")) << *reply;
  // Truncated: half a request and the client goes away.
  {
    auto half = connect(port);
    const std::string partial = "R 0xf00";
    ASSERT_EQ(::write(half.fd(), partial.data(), partial.size()), static_cast<ssize_t>(partial.size()));
  }
  auto other = connect(port);
  EXPECT_EQ(ask(other, "V"), "O 1.4");
  EXPECT_EQ(ask(other, "O " + remote_name()), "O 0");  // old-style O
  EXPECT_TRUE(ask(other, "R 0xf0014").starts_with("O 0x"));
  EXPECT_EQ(ask(c, "V"), "O 1.4");
}

TEST_F(MstServer, ReadOnlyRefusesWrites) {
  const auto port = start_server({"--read-only"});
  ASSERT_NE(port, 0);
  auto c = connect(port);
  ASSERT_EQ(ask(c, "O 1 " + remote_name()), "O 0");
  EXPECT_EQ(ask(c, "W 0x20 0x1"), "E read-only server");
  EXPECT_EQ(ask(c, "U 0x20 4 0x1"), "E read-only server");
  EXPECT_TRUE(ask(c, "R 0x20").starts_with("O 0x"));
  EXPECT_TRUE(ask(c, "B 0x20 8").starts_with("O 0x"));
}

TEST_F(MstServer, RefusesAnUnsafeListenWithUsageExit) {
  const auto r = run_tool("mst", {"server", "--listen", "0.0.0.0", "--port", "0", device_});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.err.starts_with("-E- ")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("allow"), std::string::npos) << r.err;
  const auto bad = run_tool("mst", {"server", "--allow", "10.0.0.0/33", "--port", "0", device_});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

TEST_F(MstServer, AClientOutsideTheAllowListIsClosedAtAccept) {
  const auto port = start_server({"--allow", "10.0.0.0/8"});
  ASSERT_NE(port, 0);
  auto c = connect(port);
  (void)c.send("V");
  auto reply = c.receive(kBusMaxReplyBytes, kReplyTimeout);
  ASSERT_FALSE(reply.has_value()) << *reply;
  EXPECT_EQ(reply.error().code(), ErrorCode::Io) << reply.error().message();
  EXPECT_NE(audit_text().find("not in the allow-list"), std::string::npos) << audit_text();
}

TEST_F(MstServer, StopsCleanlyOnSigterm) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto remote = open_remote(port);  // a session holding the device does not keep it running
  ASSERT_TRUE(remote.has_value()) << remote.error().message();
  servers_.back()->signal(SIGTERM);
  EXPECT_EQ(servers_.back()->wait_for(std::chrono::seconds(10)), std::optional<int>(0)) << servers_.back()->err();
}

TEST_F(MstServer, FiftyConcurrentClientsEachRead100Times) {
  constexpr int kClients = 50;
  constexpr int kReads = 100;
  // One device per client (a session holds its device); a small flash chip keeps 50 copies cheap.
  const auto small = dir_ / "small";
  ASSERT_EQ(run_tool("hcasim", {"create", "--model", "connectx4", "--flash", "M25P16", small.string()}).exit_code, 0);
  std::vector<std::string> devices;
  for (int i = 0; i < kClients; ++i) {
    const auto copy = dir_ / ("cx4-" + std::to_string(i));
    std::filesystem::copy(small, copy, std::filesystem::copy_options::recursive);
    devices.push_back("sim:" + copy.string());
  }
  const auto port = start_server({}, devices);
  ASSERT_NE(port, 0);
  std::atomic<int> good{0};
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.emplace_back([&, i] {
      auto remote = open_remote(port, devices[i]);
      if (!remote) {
        std::lock_guard lock(failures_mutex);
        failures.push_back(remote.error().message());
        return;
      }
      int ok = 0;
      for (int n = 0; n < kReads; ++n) {
        auto hw = (*remote)->read32(kHwIdAddress);
        ok += hw && (*hw & 0xffff) == kConnectX4HwId ? 1 : 0;
      }
      good += ok;
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(good.load(), kClients * kReads) << (failures.empty() ? "" : failures.front());
  EXPECT_TRUE(failures.empty()) << failures.size() << " clients could not open their device";
}

TEST_F(MstServer, StdioModeAnswersThroughPipes) {
  int to_server[2];
  int from_server[2];
  ASSERT_EQ(::pipe2(to_server, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(from_server, O_CLOEXEC), 0);
  const std::string mst = bin("mst").string();
  SpawnSpec spec;
  spec.argv = {mst, "server", "--stdio", "--audit-log", "/dev/null", device_};
  spec.stdin_fd = to_server[0];
  spec.stdout_fd = from_server[1];
  auto server = ChildProcess::spawn(spec);
  ASSERT_TRUE(server.has_value()) << server.error().message();
  ::close(to_server[0]);
  ::close(from_server[1]);
  BusConnection in(from_server[0]);  // reads the replies (read(2) works on a pipe)
  const auto request = [&](std::string_view text) {
    std::string framed(text);
    framed.push_back('\0');
    EXPECT_EQ(::write(to_server[1], framed.data(), framed.size()), static_cast<ssize_t>(framed.size()));
    auto reply = in.receive(kBusMaxReplyBytes, kReplyTimeout);
    return reply ? *reply : "receive failed: " + reply.error().message();
  };
  EXPECT_EQ(request("V"), "O 1.4");
  EXPECT_EQ(request("O 1 " + remote_name()), "O 0");
  const std::string hw = request("R 0xf0014");
  ASSERT_TRUE(hw.starts_with("O 0x")) << hw;
  EXPECT_EQ(std::stoul(hw.substr(2), nullptr, 16) & 0xffff, kConnectX4HwId);
  ::close(to_server[1]);  // EOF ends the session
  const auto status = server->wait_for(std::chrono::seconds(30));  // exit code, or minus the signal
  ASSERT_TRUE(status.has_value()) << "mst server --stdio did not end at EOF";
  EXPECT_EQ(*status, 0);
}

}  // namespace
}  // namespace openflint::test
