// PeerProcess and BusConnection over a child's stdio: framing through a real process, the exit report, stop and reap.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/PeerProcess.h"

namespace openflint {
namespace {

using namespace std::chrono_literals;

// A BusConnection whose other end is the stdin/stdout of `argv`, and the child's pid.
std::pair<BusConnection, pid_t> connect_to(const std::vector<std::string>& argv) {
  int fds[2] = {-1, -1};
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  auto peer = PeerProcess::spawn(argv, fds[1]);
  ::close(fds[1]);
  EXPECT_TRUE(peer.has_value()) << peer.error().message();
  const pid_t pid = (*peer)->pid();
  return {BusConnection(fds[0], std::move(*peer)), pid};
}

bool gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

TEST(PeerProcess, MessagesGoThroughTheChildAndItIsReapedOnDestruction) {
  pid_t pid = -1;
  {
    auto [connection, child] = connect_to({"cat"});  // echoes the NUL-framed stream back
    pid = child;
    ASSERT_TRUE(connection.send("V 1.4").has_value());
    const auto reply = connection.receive(1024, 5s);
    ASSERT_TRUE(reply.has_value()) << reply.error().message();
    EXPECT_EQ(*reply, "V 1.4");
  }
  EXPECT_TRUE(gone(pid));  // cat saw EOF, exited and was reaped: not even a zombie
}

TEST(PeerProcess, AFailedPeerIsReportedWithItsLastStderrLine) {
  auto [connection, pid] = connect_to({"sh", "-c", "echo first >&2; printf 'ssh: denied\\r\\n' >&2; exit 255"});
  const auto reply = connection.receive(1024, 5s);
  ASSERT_FALSE(reply.has_value());
  EXPECT_EQ(reply.error().code(), ErrorCode::Io);
  EXPECT_EQ(reply.error().message(), "the server closed the connection (sh exited with status 255: ssh: denied)");
}

TEST(PeerProcess, APeerThatIgnoresEofAndSigtermIsKilledAndReaped) {
  pid_t pid = -1;
  const auto start = std::chrono::steady_clock::now();
  {
    auto [connection, child] = connect_to({"sh", "-c", "trap '' TERM; exec 0</dev/null; sleep 60"});
    pid = child;
  }
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(gone(pid));
  EXPECT_GE(took, PeerProcess::kExitGrace);
  EXPECT_LT(took, PeerProcess::kExitGrace + PeerProcess::kTermGrace + 3s);
}

TEST(PeerProcess, AProgramThatIsNotThereIsNamed) {
  int fds[2] = {-1, -1};
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  const auto peer = PeerProcess::spawn({"openflint-no-such-ssh"}, fds[1]);
  const auto not_executable = PeerProcess::spawn({"/dev/null"}, fds[1]);  // exists, cannot be executed
  ::close(fds[0]);
  ::close(fds[1]);
  ASSERT_FALSE(peer.has_value());
  EXPECT_EQ(peer.error().code(), ErrorCode::NotFound);
  EXPECT_NE(peer.error().message().find("openflint-no-such-ssh"), std::string::npos);
  ASSERT_FALSE(not_executable.has_value());
  EXPECT_NE(not_executable.error().message().find("cannot run '/dev/null': Permission denied"), std::string::npos)
      << not_executable.error().message();
}

}  // namespace
}  // namespace openflint
