// flint with ssh:USER@HOST:PORT/DEVICE names against a real sshd: query, burn, a refused key, an unknown host key.
#include <chrono>
#include <regex>

#include "tests/remote_ssh/SshdFixture.h"

namespace openflint::test {
namespace {

using Clock = std::chrono::steady_clock;

// Lines describing the image on flash (what q prints for a remote device too; the running
// firmware is only known locally).
std::string image_lines(const std::string& query) {
  std::istringstream in(query);
  std::string line;
  std::string out;
  while (std::getline(in, line))
    if (line.find("(Running)") == std::string::npos && line.find("Running Copy") == std::string::npos) out += line + "\n";
  return out;
}

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST_F(SshdFixture, QueryOverSshMatchesTheLocalQuery) {
  const auto remote = flint({"-d", ssh_name(), "q"}, ssh_env());
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err;
  const auto local = flint({"-d", device_, "q"}, {});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_EQ(image_lines(remote.out), image_lines(local.out));
  EXPECT_NE(remote.out.find("FW Version:            2.40.5030"), std::string::npos) << remote.out;
  // The connection went through sshd: it logged the publickey login.
  EXPECT_NE(sshd_->err().find("Accepted publickey for " + login()), std::string::npos) << sshd_->err();
}

TEST_F(SshdFixture, BurnOverSshThenTheDeviceHoldsTheNewImage) {
  const auto burn = flint({"-d", ssh_name(), "-i", sample_image("connectx3-new").string(), "-y", "burn"}, ssh_env());
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  // flint returned after ssh, which returned after the remote `mst server --stdio` saved the device.
  const auto local = flint({"-d", device_, "q"}, {});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_NE(local.out.find("FW Version:            2.42.5000"), std::string::npos) << local.out;
  const auto verify = flint({"-d", device_, "v"}, {});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
}

TEST_F(SshdFixture, TheWrongKeyIsRefusedQuicklyWithSshsReason) {
  const auto before = read_file(device_dir_ / "flash.bin");
  const auto start = Clock::now();
  const auto r = flint({"-d", ssh_name(), "-i", sample_image("connectx3-new").string(), "-y", "burn"},
                       ssh_env("wrong_key"));
  const auto took = Clock::now() - start;
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(took, std::chrono::seconds(8));
  EXPECT_NE(r.err.find("Permission denied (publickey)"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(read_file(device_dir_ / "flash.bin"), before);
  EXPECT_NE(sshd_->err().find("Connection closed by authenticating user"), std::string::npos) << sshd_->err();
}

TEST_F(SshdFixture, AnUnknownHostKeyIsRefusedWithoutAPrompt) {
  // known_hosts does not exist and StrictHostKeyChecking=yes: with BatchMode ssh does not ask.
  const auto start = Clock::now();
  const auto r = flint({"-d", ssh_name(), "q"}, ssh_env("client_key", "yes"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(8));
  EXPECT_NE(r.err.find("Host key verification failed"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "known_hosts"));
}

TEST_F(SshdFixture, AMissingRemoteMstIsNamed) {
  auto env = ssh_env();
  env.back() = "OPENFLINT_REMOTE_MST=" + (dir_ / "no-such-mst").string();
  const auto r = flint({"-d", ssh_name(), "q"}, env);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no-such-mst: No such file or directory"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST_F(SshdFixture, OnlyTheNamedDeviceIsServed) {
  // The remote server serves exactly the device of the name; a path with a quote is passed intact.
  const std::string odd = (dir_ / "it's").string();
  const auto r = flint({"-d", "ssh:" + login() + "@127.0.0.1:" + std::to_string(port_) + "/sim:" + odd, "q"}, ssh_env());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no simulated device at " + odd), std::string::npos) << r.err;
}

}  // namespace
}  // namespace openflint::test
