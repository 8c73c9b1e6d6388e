// ibmon's traffic on an ibsim fat tree: PortCountersExtended read on every cabled port (ibsim
// answers them; PerformanceSet sets them, 64-bit), rates between two --watch passes from a data
// counter set above 2^32 in between, and --util-warn's finding for the port that carried it.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "fabricsim/SimFabric.h"
#include "tests/support/IbsimFabric.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;


class TrafficFabric : public IbsimFabricTest {
 protected:
  void SetUp() override {
    IbsimFabricTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(start_fat_tree());
  }

  void set_counter(const std::string& node, int port, const std::string& field, std::uint64_t value) {
    auto out = fabric_->console("PerformanceSet \"" + node + "\"[" + std::to_string(port) + "] PortCountersExtended." +
                                field + "=" + std::to_string(value));
    ASSERT_TRUE(out) << out.error().message();
  }
};

TEST_F(TrafficFabric, RatesBetweenPassesFrom64BitCountersAndTheUtilisationFinding) {
  const std::uint64_t sent = 0x123456789abcull;  // 4-byte units, far above 2^32
  const fs::path log = fabric_->dir() / "ibmon.jsonl";
  auto child = ChildProcess::spawn(SpawnSpec{{bin("ibmon").string(), "--watch", "1", "--count", "2", "--json",
                                              "--no-temperature", "--util-warn", "50"},
                                             fabric_->client_env("host-1"), fabric_->dir(), log, {}});
  ASSERT_TRUE(child) << child.error().message();
  const auto wait_for = [&](const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (read_text(log).find(what) == std::string::npos && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return read_text(log).find(what) != std::string::npos;
  };
  ASSERT_TRUE(wait_for("\"pass\":1")) << read_text(log);
  const auto t_set = std::chrono::steady_clock::now();
  ASSERT_NO_FATAL_FAILURE(set_counter("leaf-1", 3, "PortXmitData", sent));
  ASSERT_NO_FATAL_FAILURE(set_counter("leaf-1", 3, "PortXmitPkts", 0x100000005ull));
  ASSERT_TRUE(wait_for("\"pass\":2")) << read_text(log);
  const double at_most_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_set).count() + 2.5;
  EXPECT_EQ(child->stop(10000), 1) << read_text(log);
  std::vector<json> passes;
  std::istringstream in(read_text(log));
  for (std::string line; std::getline(in, line);) {
    passes.push_back(json::parse(line, nullptr, false));
    ASSERT_FALSE(passes.back().is_discarded()) << line;
  }
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0]["traffic_read"], 32) << "every cabled port answers PortCountersExtended";
  EXPECT_TRUE(passes[0]["traffic"].is_null()) << "no rates on a first pass";
  EXPECT_TRUE(passes[0]["healthy"].get<bool>()) << passes[0].dump(2);

  const json& traffic = passes[1]["traffic"];
  ASSERT_EQ(traffic.size(), 32u) << passes[1].dump(2);
  json port;
  for (const auto& t : traffic)
    if (t["system"] == "leaf-1" && t["port"] == 3) port = t;
  ASSERT_FALSE(port.is_null()) << traffic.dump(2);
  // The 64-bit values come back whole: nothing truncated to 32 bits. ibsim counts the MADs that
  // cross the port too (the second sweep's), so the counters read a little more than was set.
  constexpr std::uint64_t kMads = 1'000'000;  // far more than a sweep's MADs, far less than 2^32
  const auto data = port["counters"]["PortXmitData"].get<std::uint64_t>();
  EXPECT_GE(data, sent) << port.dump(2);
  EXPECT_LT(data, sent + kMads) << port.dump(2);
  const auto pkts = port["counters"]["PortXmitPkts"].get<std::uint64_t>();
  EXPECT_GE(pkts, 0x100000005ull) << port.dump(2);
  EXPECT_LT(pkts, 0x100000005ull + kMads) << port.dump(2);
  // Bytes are 4 per unit, over the time between the passes (at least the 1 s watch, at most the
  // time from the set to the second pass's end and a little).
  const double rate = port["xmit_bytes_per_s"].get<double>();
  EXPECT_LE(rate, static_cast<double>(sent + kMads) * 4 / 1.0) << port.dump(2);
  EXPECT_GE(rate, static_cast<double>(sent - kMads) * 4 / at_most_s) << port.dump(2);
  const double link = port["link_bytes_per_s"].get<double>();
  EXPECT_GT(link, 0) << "ibsim's links have a width and speed";
  EXPECT_DOUBLE_EQ(port["utilisation_pct"].get<double>(), rate / link * 100);
  EXPECT_GT(port["xmit_pkts_per_s"].get<double>(), 0x100000000 / at_most_s);

  const json& findings = passes[1]["findings"];
  ASSERT_EQ(findings.size(), 1u) << findings.dump(2);
  EXPECT_EQ(findings[0]["kind"], "utilisation");
  EXPECT_EQ(findings[0]["system"], "leaf-1");
  EXPECT_EQ(findings[0]["port"], 3);
  EXPECT_EQ(findings[0]["limit"], 50.0);
  EXPECT_NE(findings[0]["text"].get<std::string>().find("leaf-1 port 3: utilisation"), std::string::npos);
  for (const auto& t : traffic) {
    if (!(t["system"] == "leaf-1" && t["port"] == 3)) {
      EXPECT_LT(t["utilisation_pct"].get<double>(), 50) << t.dump();
    }
  }
}

TEST_F(TrafficFabric, ThresholdTextAndTheOldCaSpelling) {
  const auto bad = run_on("host-1", {bin("ibmon").string(), "--util-warn", "150"}, 60000);
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("utilisation 150 is not a percentage"), std::string::npos) << bad.err;
  // One pass has no rates: a threshold of 0 finds nothing yet.
  const auto one = run_on("host-1", {bin("ibmon").string(), "--util-warn", "0", "--no-temperature"}, 60000);
  EXPECT_EQ(one.exit_code, 0) << one.out << one.err;
  EXPECT_EQ(one.out.find("traffic"), std::string::npos) << one.out;
  // Text: the busiest port per later pass, or every port with --traffic (ibsim's own MADs move).
  const auto busiest = run_on("host-1", {bin("ibmon").string(), "--watch", "0.2", "--count", "2", "--no-temperature"}, 60000);
  EXPECT_EQ(busiest.exit_code, 0) << busiest.out << busiest.err;
  EXPECT_NE(busiest.out.find("\n  traffic: 32 ports, busiest "), std::string::npos) << busiest.out;
  const auto every = run_on("host-1", {bin("ibmon").string(), "--watch", "0.2", "--count", "2", "--no-temperature",
                                       "--traffic"}, 60000);
  EXPECT_EQ(every.exit_code, 0) << every.out << every.err;
  EXPECT_NE(every.out.find("\n  traffic leaf-1 port 3: xmit "), std::string::npos) << every.out;
  EXPECT_NE(every.out.find("\n  traffic spine-2 port 4: xmit "), std::string::npos) << every.out;
  // -i is the old spelling of -C,--ca: still taken, with a warning.
  const auto old_ca = run_on("host-1", {bin("ibmon").string(), "-i", "nosuchca0", "--no-temperature"}, 60000);
  EXPECT_NE(old_ca.exit_code, 0) << old_ca.out;
  EXPECT_NE(old_ca.err.find("-W- -i CA is deprecated: the local CA is -C,--ca"), std::string::npos) << old_ca.err;
  const auto old_ca_ibcon = run_on("host-1", {bin("ibcon").string(), "MGIR", "-i", "nosuchca0"}, 60000);
  EXPECT_NE(old_ca_ibcon.exit_code, 0) << old_ca_ibcon.out;
  EXPECT_NE(old_ca_ibcon.err.find("-W- -i CA is deprecated"), std::string::npos) << old_ca_ibcon.err;
}

}  // namespace
}  // namespace openflint::test
