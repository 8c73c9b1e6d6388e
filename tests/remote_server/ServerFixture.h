// ServerFixture: a simulated ConnectX-4 served by a child `mst server --port 0`, and clients for it.
// TearDown kills every server the test started and checks none is left (pgrep on a unique tag).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "mtcr/remote/RemoteBusAccess.h"
#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

inline constexpr std::uint32_t kHwIdAddress = 0xf0014;
inline constexpr std::uint32_t kConnectX4HwId = 0x209;
inline constexpr auto kReplyTimeout = std::chrono::milliseconds(30000);  // 50 opens at once under ASan

class ServerFixture : public ::testing::Test {
 protected:
  static constexpr auto kReadyTimeout = std::chrono::seconds(20);

  void SetUp() override {
    const auto r = run_tool("hcasim", {"create", "--model", "connectx4", device_dir_.string(), "--image",
                                       sample_image("connectx4-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }

  void TearDown() override {
    for (auto& s : servers_)
      if (s->running()) s->signal(SIGKILL);
    servers_.clear();  // reaps
    const auto left = run_command({"pgrep", "-f", tag_});
    EXPECT_NE(left.exit_code, 0) << "server processes left: " << left.out;
  }

  // Starts `mst server --port 0 EXTRA... DEVICES...` and waits for its "-I- serving" line; the
  // port, or 0 when it did not come up. A unique --audit-log path tags the command line for pgrep.
  std::uint16_t start_server(const std::vector<std::string>& extra, const std::vector<std::string>& devices) {
    std::vector<std::string> argv{bin("mst").string(), "server", "--port", "0", "--audit-log",
                                  (dir_ / (tag_ + ".audit")).string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), devices.begin(), devices.end());
    const auto n = std::to_string(servers_.size());
    servers_.push_back(std::make_unique<ChildProcess>(background_tool(argv, std::vector<std::string>{}, dir_ / ("out" + n),
                                                      dir_ / ("err" + n))));
    ChildProcess& child = *servers_.back();
    const std::regex ready("-I- serving [0-9]+ device\\(s\\) on 127\\.0\\.0\\.1:([0-9]+)");
    const auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
      std::smatch m;
      const std::string err = child.err();
      if (std::regex_search(err, m, ready)) return static_cast<std::uint16_t>(std::stoi(m[1].str()));
      if (!child.running()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "the server did not come up: " << child.err();
    return 0;
  }
  std::uint16_t start_server(const std::vector<std::string>& extra = {}) { return start_server(extra, {device_}); }

  static BusConnection connect(std::uint16_t port) {
    auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
    EXPECT_TRUE(c.has_value()) << c.error().message();
    return std::move(c).value();
  }
  // One request, one reply.
  static std::string ask(BusConnection& c, std::string_view request) {
    if (auto sent = c.send(request); !sent) return "send failed: " + sent.error().message();
    auto reply = c.receive(kBusMaxReplyBytes, kReplyTimeout);
    return reply ? *reply : "receive failed: " + reply.error().message();
  }
  // The device name as a remote client writes it ('/' as '@').
  [[nodiscard]] std::string remote_name(std::string name = {}) const {
    if (name.empty()) name = device_;
    for (char& ch : name)
      if (ch == '/') ch = '@';
    return name;
  }
  Result<std::unique_ptr<RemoteBusAccess>> open_remote(std::uint16_t port, const std::string& device = {}) {
    auto c = BusConnection::connect_tcp("127.0.0.1", port, kReplyTimeout);
    if (!c) return make_error(std::move(c).error());
    return RemoteBusAccess::open(std::move(c).value(), remote_name(device), kReplyTimeout);
  }
  [[nodiscard]] std::string audit_text() const {
    const auto bytes = read_file(dir_ / (tag_ + ".audit"));
    return {bytes.begin(), bytes.end()};
  }

  TempDir dir_;
  std::filesystem::path device_dir_ = dir_ / "cx4";
  std::string device_ = "sim:" + device_dir_.string();
  std::string tag_ = "ofsrv-" + dir_.path().filename().string();
  std::vector<std::unique_ptr<ChildProcess>> servers_;
};

}  // namespace openflint::test
