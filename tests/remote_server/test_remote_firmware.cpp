// End to end through `mst server` over loopback TCP: flint q shows the running firmware (MGIR over G), a burn of a
// live ConnectX-4 takes the firmware path (MCC/MCDA over G), and a gateway burn is pipelined.
#include <gtest/gtest.h>

#include <regex>

#include "sim/SimDevice.h"
#include "tests/remote_server/ServerFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

// The value of a "Name:   value" line of flint's query output.
std::string field(const std::string& out, const std::string& name) {
  std::smatch m;
  const std::regex line("(^|\n)" + std::regex_replace(name, std::regex(R"([()])"), R"(\$&)") + ":\\s+([^\n]*)");
  return std::regex_search(out, m, line) ? m[2].str() : std::string();
}

// "N requests in M round trips" of the audit's last connection that wrote.
std::pair<long, long> requests_and_round_trips(const std::string& audit) {
  const std::regex totals("connection closed: ([0-9]+) requests in ([0-9]+) round trips");
  std::pair<long, long> most{0, 0};
  for (auto it = std::sregex_iterator(audit.begin(), audit.end(), totals); it != std::sregex_iterator(); ++it)
    if (std::stol((*it)[1]) > most.first) most = {std::stol((*it)[1]), std::stol((*it)[2])};
  return most;
}

class RemoteFirmware : public ServerFixture {
 protected:
  sim::SimCounters saved_counters(const std::filesystem::path& dir) {
    auto d = sim::SimDevice::load_state(dir);
    EXPECT_TRUE(d) << d.error().message();
    return d ? (*d)->counters() : sim::SimCounters{};
  }
  std::string remote(std::uint16_t port, const std::string& device) {
    return "127.0.0.1:" + std::to_string(port) + "," + remote_name(device);
  }
};

TEST_F(RemoteFirmware, QueryShowsTheRunningFirmwareAndABurnGoesThroughIt) {
  const auto old_image = dir_ / "mcc-28.bin", new_image = dir_ / "mcc-29.bin";
  write_file(old_image, mcc_fs3(28));
  write_file(new_image, mcc_fs3(29));
  const auto live_dir = dir_ / "live";
  const auto c = run_tool("hcasim", {"create", "--model", "connectx4", live_dir.string(), "--image", old_image.string()});
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  const std::string live = "sim:" + live_dir.string();
  const auto before = saved_counters(live_dir);
  const auto port = start_server({}, {live});
  ASSERT_NE(port, 0);

  const auto q = run_tool("flint", {"-d", remote(port, live), "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(field(q.out, "FW Version"), "12.28.1100") << q.out;
  EXPECT_EQ(field(q.out, "FW Version(Running)"), "12.28.1100") << q.out;

  const auto b = run_tool("flint", {"-d", remote(port, live), "-i", new_image.string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  EXPECT_NE(b.out.find("through the running firmware"), std::string::npos) << b.out;
  const auto q2 = run_tool("flint", {"-d", remote(port, live), "q"});
  ASSERT_EQ(q2.exit_code, 0) << q2.out << q2.err;
  EXPECT_EQ(field(q2.out, "FW Version"), "12.29.1100") << q2.out;
  EXPECT_EQ(field(q2.out, "FW Version(Running)"), "12.28.1100") << q2.out;  // until a reset on the host

  const auto after = saved_counters(live_dir);
  EXPECT_EQ(after.gateway_commands, before.gateway_commands) << "q or burn used the flash gateway";
  EXPECT_EQ(after.firmware.gateway_conflicts, 0u);
  EXPECT_EQ(after.firmware.component_activations, before.firmware.component_activations + 1);
  const std::string audit = audit_text();
  EXPECT_NE(audit.find("(first register write)"), std::string::npos) << audit;
  // The MCDA chunks were pipelined: far fewer round trips than requests.
  const auto [requests, trips] = requests_and_round_trips(audit);
  EXPECT_GT(requests, 150) << audit;
  EXPECT_LT(trips * 3, requests) << audit;

  // A raw write goes through the running firmware (MFBA/MFBE) remotely as it does locally.
  const auto ww = run_tool("flint", {"-d", remote(port, live), "ww", "0x400000", "0x12345678"});
  EXPECT_EQ(ww.exit_code, 0) << ww.out << ww.err;
  const auto after_ww = saved_counters(live_dir);
  EXPECT_EQ(after_ww.gateway_commands, before.gateway_commands) << "ww used the flash gateway";
  EXPECT_EQ(after_ww.firmware.gateway_conflicts, 0u);
  EXPECT_GT(after_ww.firmware.flash_programs, after.firmware.flash_programs);
}

TEST_F(RemoteFirmware, AGatewayBurnOverTcpIsPipelined) {
  // The fixture's device runs connectx4-old.bin, an image without MCC: the burn takes the gateway.
  const auto port = start_server();
  ASSERT_NE(port, 0);
  const auto b = run_tool("flint", {"-d", remote(port, device_), "-i", sample_image("connectx4-new").string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  EXPECT_EQ(b.out.find("through the running firmware"), std::string::npos) << b.out;
  const auto q = run_tool("flint", {"-d", remote(port, device_), "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(field(q.out, "FW Version"), "12.28.2006") << q.out;
  EXPECT_EQ(field(q.out, "FW Version(Running)"), "12.27.1016") << q.out;
  // Each gateway transaction (ADDR, DATA, CMD and the first poll) is one round trip.
  const auto [requests, trips] = requests_and_round_trips(audit_text());
  EXPECT_GT(requests, 10000) << audit_text();
  EXPECT_LT(trips * 3, requests) << audit_text();
}

TEST_F(RemoteFirmware, ResetArmsTheFirmwareResetRemotelyAndRefusesAPciReset) {
  const auto port = start_server();
  ASSERT_NE(port, 0);
  // Level 3 resets the PCI link on the device's host: not from here.
  const auto refused = run_tool("mst", {"reset", "-y", remote(port, device_)});
  EXPECT_NE(refused.exit_code, 0) << refused.out << refused.err;
  EXPECT_NE((refused.out + refused.err).find("needs the device's host"), std::string::npos) << refused.out << refused.err;
  // Level 4 is a register write (MFRL), read back armed by the firmware.
  const auto armed = run_tool("mst", {"reset", "-y", "--level", "4", remote(port, device_)});
  ASSERT_EQ(armed.exit_code, 0) << armed.out << armed.err;
  EXPECT_NE(armed.out.find("firmware reset armed"), std::string::npos) << armed.out;
  EXPECT_NE(audit_text().find("register 0x9028 "), std::string::npos) << audit_text();
}

}  // namespace
}  // namespace openflint::test
