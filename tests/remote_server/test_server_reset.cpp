// The bus server's reset (X, `mst server --allow-reset`): refused by default, the safe reset of `mst reset`
// on a simulated device when allowed (the new firmware runs after it), a device held by another tool
// refused, one audit line per reset request; the X codec.
#include <gtest/gtest.h>

#include <regex>

#include "fwops/Device.h"
#include "sim/SimDevice.h"
#include "tests/remote_server/ServerFixture.h"

namespace openflint::test {
namespace {

constexpr const char* kOldVersion = "12.27.1016";  // connectx4-old.bin
constexpr const char* kNewVersion = "12.28.2006";  // connectx4-new.bin

std::string running_version(const std::string& query_out) {
  std::smatch m;
  static const std::regex line(R"((^|\n)FW Version\(Running\):\s+([^\n]*))");
  return std::regex_search(query_out, m, line) ? m[2].str() : std::string();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class ServerReset : public ServerFixture {
 protected:
  // The new image on the device's flash (burned locally, before any server runs): it runs after a reset.
  void burn_new_image() {
    const auto b = run_tool("flint", {"-d", device_, "-i", sample_image("connectx4-new").string(), "-y", "burn"});
    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  }
  [[nodiscard]] std::string remote(std::uint16_t port) const {
    return "127.0.0.1:" + std::to_string(port) + "," + remote_name();
  }
  std::string boot_running_version() {
    auto d = sim::SimDevice::load_state(device_dir_);
    EXPECT_TRUE(d) << d.error().message();
    if (!d || !(*d)->boot_state().running || !(*d)->boot_state().running->fw_version) return {};
    return (*d)->boot_state().running->fw_version->to_string();
  }
};

TEST(BusResetCodec, RequestsAndRepliesRoundTrip) {
  for (const char* text : {"X 3 0", "X 3 1", "X 4 0", "X 4 1", "X 0x3 1"}) {
    auto r = parse_bus_request(text);
    ASSERT_TRUE(r) << text << ": " << r.error().message();
    EXPECT_EQ(r->command, BusCommand::Reset);
    auto again = parse_bus_request(format_bus_request(*r));
    ASSERT_TRUE(again) << format_bus_request(*r);
    EXPECT_EQ(*again, *r);
  }
  for (const char* bad : {"X", "X 3", "X 2 1", "X 5 0", "X 3 2", "X 3 1 1", "X  3 1", "X3 1"})
    EXPECT_FALSE(parse_bus_request(bad)) << bad;
  const BusResetReply plan{.resets_now = true, .took_ms = {}, .text = "power-on reset of the simulated device"};
  EXPECT_EQ(format_reset_reply(plan), "O 1 power-on reset of the simulated device");
  EXPECT_EQ(parse_reset_reply(format_reset_reply(plan), false).value(), plan);
  const BusResetReply done{.resets_now = false, .took_ms = 12, .text = "armed: runs after the next warm reboot"};
  EXPECT_EQ(format_reset_reply(done), "O 0 12 armed: runs after the next warm reboot");
  EXPECT_EQ(parse_reset_reply(format_reset_reply(done), true).value(), done);
  for (const char* bad : {"O", "O 2 x", "O 1x", "O 1 notanumber text"}) EXPECT_FALSE(parse_reset_reply(bad, true)) << bad;
  auto refused = parse_reset_reply("E reset not allowed by this server", false);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("reset not allowed by this server"), std::string::npos);
}

TEST_F(ServerReset, IsRefusedByDefaultAndAudited) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  auto c = connect(port);
  EXPECT_EQ(ask(c, "X 3 0"), "E Not opened");
  EXPECT_EQ(ask(c, "O " + remote_name()), "O 0");
  EXPECT_EQ(ask(c, "X 3 0"), "E reset not allowed by this server");
  EXPECT_EQ(ask(c, "X 3 1"), "E reset not allowed by this server");
  EXPECT_EQ(ask(c, "X 7 1").rfind("E reset level 7", 0), 0u);
  EXPECT_EQ(ask(c, "C"), "O");
  // A level 3 through `mst reset` is refused with the server's answer; nothing was reset.
  const auto refused = run_tool("mst", {"reset", "-y", remote(port)});
  EXPECT_EQ(refused.exit_code, 6) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("reset not allowed by this server"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("needs the device's host"), std::string::npos) << refused.err;
  const std::string audit = audit_text();
  EXPECT_EQ(count(audit, "reset of " + device_ + " level 3 refused: reset not allowed by this server"), 1u) << audit;
  // The plans asked (the raw X 3 0 and mst reset's) are audited as such.
  EXPECT_EQ(count(audit, "reset plan of " + device_ + " level 3 refused: reset not allowed by this server"), 2u)
      << audit;
}

TEST_F(ServerReset, AnAllowedResetRunsTheNewFirmware) {
  burn_new_image();
  ASSERT_FALSE(HasFatalFailure());
  const auto port = start_server({"--allow-reset"});
  ASSERT_NE(port, 0);
  const auto before = run_tool("flint", {"-d", remote(port), "q"});
  ASSERT_EQ(before.exit_code, 0) << before.out << before.err;
  EXPECT_EQ(running_version(before.out), kOldVersion) << before.out;

  const auto reset = run_tool("mst", {"reset", "-y", "--json", remote(port)});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  EXPECT_NE(reset.out.find("\"by_server\": true"), std::string::npos) << reset.out;
  EXPECT_NE(reset.out.find(kNewVersion), std::string::npos) << "running_after: " << reset.out;

  const auto after = run_tool("flint", {"-d", remote(port), "q"});
  ASSERT_EQ(after.exit_code, 0) << after.out << after.err;
  EXPECT_EQ(running_version(after.out), kNewVersion) << after.out;
  // The server saved the simulated device's new boot state.
  EXPECT_EQ(boot_running_version(), kNewVersion);
  const std::string audit = audit_text();
  EXPECT_EQ(count(audit, "reset of " + device_ + " level 3: reset in "), 1u) << audit;
  EXPECT_EQ(count(audit, "reset plan of " + device_ + " level 3: power-on reset"), 1u) << audit;
  EXPECT_NE(audit.find("ms, runs " + std::string(kNewVersion)), std::string::npos) << audit;
}

TEST_F(ServerReset, ADeviceHeldByAnotherToolIsNotReset) {
  burn_new_image();
  ASSERT_FALSE(HasFatalFailure());
  const auto port = start_server({"--allow-reset"});
  ASSERT_NE(port, 0);
  {
    auto held = open_device(device_, {});  // another tool on the server's host holds the device (its lock)
    ASSERT_TRUE(held) << held.error().message();
    const auto busy = run_tool("mst", {"reset", "-y", "--lock-wait", "300", remote(port)});
    EXPECT_EQ(busy.exit_code, 5) << busy.out << busy.err;
    EXPECT_NE(busy.err.find("device busy"), std::string::npos) << busy.err;
  }
  EXPECT_EQ(audit_text().find("reset "), std::string::npos) << "the client never got the device: " << audit_text();
  EXPECT_EQ(boot_running_version(), kOldVersion) << "reset while held";
}

TEST_F(ServerReset, ALevelFourResetIsArmedOrRunByTheServer) {
  const auto port = start_server({"--allow-reset", "--allow-unbind"});
  ASSERT_NE(port, 0);
  auto c = connect(port);
  EXPECT_EQ(ask(c, "O " + remote_name()), "O 0");
  // A simulated device has no PCI link: its reset is the power-on reset at either level.
  const std::string plan = ask(c, "X 4 0");
  EXPECT_EQ(plan.rfind("O 1 ", 0), 0u) << plan;
  EXPECT_EQ(ask(c, "C"), "O");
  // --allow-unbind alone is a usage error.
  const auto usage = run_tool("mst", {"server", "--port", "0", "--allow-unbind", device_});
  EXPECT_EQ(usage.exit_code, 2) << usage.out << usage.err;
}

}  // namespace
}  // namespace openflint::test
