// BusSession's G (access registers): the probe, MGIR through a simulated ConnectX-4's register port, writes refused
// on a read-only server while queries pass, the audit lines, and pipelined requests answered in one batch.
#include <sys/socket.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "core/HexString.h"
#include "fwops/Device.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/registers/MgirRegister.h"
#include "remote/BusSession.h"
#include "remote/ConnectionBusChannel.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr auto kTimeout = std::chrono::milliseconds(5000);

class RegisterSession : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_tool("hcasim", {"create", "--model", "connectx4", (dir_ / "cx4").string(), "--image",
                                       sample_image("connectx4-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    name_ = "sim:" + (dir_ / "cx4").string();
    at_name_ = name_;
    std::replace(at_name_.begin(), at_name_.end(), '/', '@');
  }

  // A session that answers through answer() (no socket traffic).
  std::unique_ptr<BusSession> session(bool read_only) {
    BusSessionOptions options;
    options.devices = {name_};
    options.peer = "t";
    options.read_only = read_only;
    options.audit = [this](std::string_view line) { audit_.emplace_back(line); };
    return std::make_unique<BusSession>(channel_, std::move(options));
  }
  static std::string one(const std::vector<std::string>& replies) { return replies.size() == 1 ? replies[0] : "?"; }
  static std::string mgir_query() {
    return "G " + hex_string(MgirRegister::kId) + " 1 " + std::to_string(MgirRegister::kSize) + [] {
      std::string zeros;
      for (std::size_t i = 0; i < MgirRegister::kSize / 4; ++i) zeros += " 0x0";
      return zeros;
    }();
  }
  bool audited(std::string_view part) const {
    return std::any_of(audit_.begin(), audit_.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
  }

  TempDir dir_;
  std::string name_, at_name_;
  ConnectionBusChannel channel_{BusConnection(-1)};
  std::vector<std::string> audit_;
};

TEST_F(RegisterSession, TheProbeNamesTheChannelSizeAndMgirReadsTheRunningFirmware) {
  auto s = session(false);
  EXPECT_EQ(one(s->answer("G")), "E Not opened");
  ASSERT_EQ(one(s->answer("O 1 " + at_name_)), "O 0");
  // The sim's ICMD mailbox (0x340) less the TLV headers.
  EXPECT_EQ(one(s->answer("G")), "O 812");
  const std::string reply = one(s->answer(mgir_query()));
  auto parsed = parse_register_reply(reply);
  ASSERT_TRUE(parsed.has_value()) << reply;
  EXPECT_EQ(parsed->status, 0);
  auto mgir = MgirRegister::decode(register_bytes(parsed->data));
  ASSERT_TRUE(mgir.has_value()) << mgir.error().message();
  EXPECT_EQ(mgir->major, 12);
  EXPECT_EQ(mgir->minor, 27);
  EXPECT_EQ(mgir->subminor, 1016);
  // An unknown register is the firmware's answer (status 4), not a channel error.
  EXPECT_TRUE(one(s->answer("G 0x7777 1 4 0x0")).starts_with("O 0x4 ")) << one(s->answer("G 0x7777 1 4 0x0"));
  // Larger than the channel: refused with a reason.
  std::string big = "G 0x9001 1 816";
  for (int i = 0; i < 204; ++i) big += " 0x0";
  EXPECT_TRUE(one(s->answer(big)).starts_with("E register of 816 bytes exceeds")) << one(s->answer(big));
}

TEST_F(RegisterSession, WritesAreAuditedOnceAndCountedAtClose) {
  {
    auto s = session(false);
    ASSERT_EQ(one(s->answer("O 1 " + at_name_)), "O 0");
    const std::string write = "G " + hex_string(MgirRegister::kId) + " 2 4 0x1";
    for (int i = 0; i < 2; ++i) {
      const std::string reply = one(s->answer(write));
      EXPECT_TRUE(reply.starts_with("O 0x6 ")) << reply;  // the sim's firmware: method not supported
    }
    EXPECT_EQ(one(s->answer("C")), "O");
  }
  EXPECT_EQ(std::count_if(audit_.begin(), audit_.end(),
                          [](const std::string& l) { return l.find("(first register write)") != std::string::npos; }),
            1);
  EXPECT_TRUE(audited("t: G " + name_ + " register " + hex_string(MgirRegister::kId) + " 4 bytes (first register write)"));
  EXPECT_TRUE(audited("2 register writes")) << audit_.back();
}

TEST_F(RegisterSession, AReadOnlyServerAnswersQueriesButRefusesWrites) {
  auto s = session(true);
  ASSERT_EQ(one(s->answer("O 1 " + at_name_)), "O 0");
  EXPECT_TRUE(one(s->answer(mgir_query())).starts_with("O 0x0 "));
  EXPECT_EQ(one(s->answer("G " + hex_string(MgirRegister::kId) + " 2 4 0x1")), "E read-only server");
  EXPECT_FALSE(audited("register write"));
}

TEST_F(RegisterSession, PipelinedRequestsAreAnsweredInOneBatch) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  std::thread server([&] {
    ConnectionBusChannel channel{BusConnection(fds[0])};
    BusSessionOptions options;
    options.devices = {name_};
    options.peer = "pair";
    options.audit = [this](std::string_view line) { audit_.emplace_back(line); };
    BusSession session(channel, std::move(options));
    (void)session.run();
  });
  {
    BusConnection client(fds[1]);
    const auto next = [&client] {
      auto reply = client.receive(kBusMaxReplyBytes, kTimeout);
      return reply ? *reply : "receive failed: " + reply.error().message();
    };
    ASSERT_TRUE(client.send("O 1 " + at_name_).has_value());
    ASSERT_EQ(next(), "O 0");
    const std::vector<std::string> batch{"W 0x20 0x1", "W 0x24 0x2", "G", mgir_query(), "B 0x20 8"};
    ASSERT_TRUE(client.send_all(batch).has_value());
    std::vector<std::string> replies;
    for (std::size_t i = 0; i < batch.size(); ++i) replies.push_back(next());
    EXPECT_EQ(replies[0], "O");
    EXPECT_EQ(replies[1], "O");
    EXPECT_EQ(replies[2], "O 812");
    EXPECT_TRUE(replies[3].starts_with("O 0x0 ")) << replies[3];
    EXPECT_EQ(replies[4], "O 0x00000001 0x00000002");
  }  // EOF ends the session
  server.join();
  // O, then the five together: two round trips for six requests.
  EXPECT_TRUE(audited("pair: connection closed: 6 requests in 2 round trips")) << audit_.back();
}

}  // namespace
}  // namespace openflint::test
