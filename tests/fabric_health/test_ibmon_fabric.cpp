// ibmon and ibcon on an ibsim fat tree (2 spines, 4 leaves, 8 hosts, from ibtopogen's model) with
// simulated devices behind leaf-2 and host-5: a raised error counter (ibsim console) and a hot
// device are the only findings (exit 1), a clean fabric is healthy (exit 0), --watch judges
// counter increases, ibcon reads MTMP on the nodes that answer and names those that do not.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "fabricsim/SimFabric.h"
#include "tests/support/IbsimFabric.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;


class HealthFabric : public IbsimFabricTest {
 protected:
  // The fat tree with responders for leaf-2 (Switch-IB) and host-5 (ConnectX-4) at these temperatures.
  void up(std::uint32_t leaf_celsius, std::uint32_t host_celsius) {
    ASSERT_NO_FATAL_FAILURE(start_fat_tree());
    device("leaf-2", "switchib", leaf_celsius);
    device("host-5", "connectx4", host_celsius);
  }

  void device(const std::string& node, const std::string& model, std::uint32_t celsius) {
    const fs::path dir = devices_.path() / node;
    const auto made = run_command({bin("hcasim").string(), "create", "--model", model, dir.string()});
    ASSERT_EQ(made.exit_code, 0) << made.out << made.err;
    const auto hot = run_command({bin("hcasim").string(), "set-temperature", dir.string(), std::to_string(celsius)});
    ASSERT_EQ(hot.exit_code, 0) << hot.out << hot.err;
    auto pid = fabric_->start_responder(node, {bin("ibsim-responder").string(), "--sim", dir.string()});
    ASSERT_TRUE(pid) << pid.error().message();
  }

  CapturedRun tool(const std::string& name, std::vector<std::string> args) {
    std::vector<std::string> argv{bin(name).string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_on("host-1", argv, 60000);
  }

  json tool_json(const std::string& name, std::vector<std::string> args, int expected_rc) {
    args.push_back("--json");
    const auto r = tool(name, args);
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j.is_discarded() ? json{} : j;
  }

  void raise_symbol_errors(const std::string& node, int port, int value) {
    auto out = fabric_->console("PerformanceSet \"" + node + "\"[" + std::to_string(port) +
                                "] PortCounters.SymbolErrorCounter=" + std::to_string(value));
    ASSERT_TRUE(out) << out.error().message();
  }

  TempDir devices_;
};

TEST_F(HealthFabric, ACleanFabricIsHealthy) {
  up(50, 60);
  const json j = tool_json("ibmon", {}, 0);
  ASSERT_EQ(j["passes"].size(), 1u) << j.dump(2);
  const json& p = j["passes"][0];
  EXPECT_TRUE(j["healthy"].get<bool>());
  EXPECT_EQ(p["nodes"], 14);
  EXPECT_EQ(p["ports"], 32);  // 16 cables, both ends
  EXPECT_EQ(p["counters_read"], 32);
  EXPECT_EQ(p["temperatures_read"], 2);  // only the nodes with a simulated device answer MTMP
  EXPECT_EQ(p["findings"].size(), 0u) << p.dump(2);
  const auto text = tool("ibmon", {});
  EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("pass 1: 14 nodes, 32 cabled ports (32 counters read), 2 temperatures read: healthy"),
            std::string::npos)
      << text.out;
}

TEST_F(HealthFabric, ARaisedCounterAndAHotDeviceAreTheOnlyFindings) {
  up(50, 97);
  raise_symbol_errors("leaf-3", 2, 7);
  // A console command ibsim rejects is an error with ibsim's answer, not a silent no-op.
  const auto rejected = fabric_->console("PerformanceSet \"nobody\"[1] PortCounters.SymbolErrorCounter=1");
  ASSERT_FALSE(rejected);
  EXPECT_NE(rejected.error().message().find("not found"), std::string::npos) << rejected.error().message();
  const json j = tool_json("ibmon", {}, 1);
  ASSERT_EQ(j["passes"].size(), 1u) << j.dump(2);
  const json& f = j["passes"][0]["findings"];
  ASSERT_EQ(f.size(), 2u) << f.dump(2);
  std::map<std::string, json> by_kind;
  for (const auto& x : f) by_kind[x["kind"].get<std::string>()] = x;
  ASSERT_EQ(by_kind.count("counter"), 1u) << f.dump(2);
  ASSERT_EQ(by_kind.count("temperature"), 1u) << f.dump(2);
  EXPECT_EQ(by_kind["counter"]["system"], "leaf-3");
  EXPECT_EQ(by_kind["counter"]["port"], 2);
  EXPECT_EQ(by_kind["counter"]["metric"], "SymbolErrorCounter");
  EXPECT_EQ(by_kind["counter"]["value"], 7);
  EXPECT_EQ(by_kind["counter"]["limit"], 0);
  EXPECT_EQ(by_kind["temperature"]["system"], "host-5");
  EXPECT_EQ(by_kind["temperature"]["value"], 97);
  EXPECT_EQ(by_kind["temperature"]["limit"], 85);
  // A higher limit from the command line (or a file) makes the same fabric healthy.
  TempDir d;
  std::ofstream(d.path() / "limits") << "# lab limits\nSymbolErrorCounter 10\n";
  const auto r = tool("ibmon", {"-T", (d.path() / "limits").string(), "--threshold", "temperature=100"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // A threshold file that does not parse: a usage error like any bad config file (exit 2), the line named.
  std::ofstream(d.path() / "bad") << "SymbolErrorCounter 10\ntemprature 3\n";
  const auto bad = tool("ibmon", {"-T", (d.path() / "bad").string()});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("line 2: unknown threshold temprature"), std::string::npos) << bad.err;
  EXPECT_EQ(tool("ibmon", {"--threshold", "nonsense"}).exit_code, 2);
}

TEST_F(HealthFabric, WatchJudgesTheIncreaseBetweenPasses) {
  up(50, 60);
  raise_symbol_errors("spine-1", 4, 3);
  // ibmon runs in the background; its first pass sees 3 (a finding), then the counter grows by 5
  // before the second pass, which reports +5.
  const fs::path log = fabric_->dir() / "ibmon.log";
  auto child = ChildProcess::spawn(SpawnSpec{{bin("ibmon").string(), "--watch", "1", "--count", "3"},
                                             fabric_->client_env("host-1"), fabric_->dir(), log, {}});
  ASSERT_TRUE(child) << child.error().message();
  const auto wait_for = [&](const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (read_text(log).find(what) == std::string::npos && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return read_text(log).find(what) != std::string::npos;
  };
  ASSERT_TRUE(wait_for("pass 1:")) << read_text(log);
  raise_symbol_errors("spine-1", 4, 8);
  ASSERT_TRUE(wait_for("pass 3:")) << read_text(log);
  EXPECT_EQ(child->stop(10000), 1) << read_text(log);
  const std::string out = read_text(log);
  EXPECT_NE(out.find("pass 1: 14 nodes, 32 cabled ports (32 counters read), 2 temperatures read: 1 finding(s)\n"
                     "  spine-1 port 4: SymbolErrorCounter 3 > 0\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("pass 2: 14 nodes, 32 cabled ports (32 counters read), 2 temperatures read: 1 finding(s)\n"
                     "  spine-1 port 4: SymbolErrorCounter +5 since the last pass (now 8) > 0\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("pass 3: 14 nodes, 32 cabled ports (32 counters read), 2 temperatures read: healthy"),
            std::string::npos)
      << out;
}

// --watch --json: one JSON document per pass, on one line as the pass ends (JSON lines); the
// second pass carries exactly the counter raised in between as a delta.
TEST_F(HealthFabric, WatchJsonPrintsOneLinePerPassWithCounterDeltas) {
  up(50, 60);
  raise_symbol_errors("leaf-1", 3, 2);
  const fs::path log = fabric_->dir() / "ibmon.jsonl";
  auto child = ChildProcess::spawn(SpawnSpec{{bin("ibmon").string(), "--watch", "0.5", "--count", "2", "--json"},
                                             fabric_->client_env("host-1"), fabric_->dir(), log, {}});
  ASSERT_TRUE(child) << child.error().message();
  const auto wait_for = [&](const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (read_text(log).find(what) == std::string::npos && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return read_text(log).find(what) != std::string::npos;
  };
  ASSERT_TRUE(wait_for("\"pass\":1")) << read_text(log);
  raise_symbol_errors("leaf-1", 3, 6);
  ASSERT_TRUE(wait_for("\"pass\":2")) << read_text(log);
  EXPECT_EQ(child->stop(10000), 1) << read_text(log);
  std::vector<json> lines;
  std::istringstream in(read_text(log));
  for (std::string line; std::getline(in, line);) {
    lines.push_back(json::parse(line, nullptr, false));
    ASSERT_FALSE(lines.back().is_discarded()) << line;
  }
  ASSERT_EQ(lines.size(), 2u) << read_text(log);
  EXPECT_EQ(lines[0]["pass"], 1);
  EXPECT_EQ(lines[0]["json_version"], 1);
  EXPECT_TRUE(lines[0]["deltas"].is_null());  // nothing to compare with yet
  ASSERT_EQ(lines[0]["findings"].size(), 1u) << lines[0].dump(2);
  EXPECT_EQ(lines[0]["findings"][0]["value"], 2);
  json deltas = lines[1]["deltas"];
  ASSERT_EQ(deltas.size(), 1u) << lines[1].dump(2);
  deltas[0].erase("guid");
  EXPECT_EQ(deltas[0], (json{{"system", "leaf-1"}, {"port", 3}, {"counter", "SymbolErrorCounter"}, {"value", 6},
                             {"delta", 4}}));
  EXPECT_EQ(lines[1]["findings"][0]["delta"], 4);
}

TEST_F(HealthFabric, IbconReadsARegisterOnTheNodesThatAnswer) {
  up(50, 97);
  const json j = tool_json("ibcon", {"MTMP.temperature"}, 1);  // 12 nodes have no vendor access
  ASSERT_EQ(j["nodes"].size(), 14u) << j.dump(2);
  EXPECT_EQ(j["register"], "MTMP.temperature");
  std::map<std::string, json> read;
  std::set<std::string> unread;
  for (const auto& n : j["nodes"]) {
    if (n["read"].get<bool>()) read[n["system"].get<std::string>()] = n;
    else {
      unread.insert(n["system"].get<std::string>());
      EXPECT_FALSE(n["vendor_access"].get<bool>()) << n.dump();
      EXPECT_NE(n["note"].get<std::string>().find("no vendor access"), std::string::npos) << n.dump();
    }
  }
  ASSERT_EQ(read.size(), 2u) << j.dump(2);
  EXPECT_EQ(read["leaf-2"]["values"]["temperature"], "0x190");  // 50 C in 0.125 C units
  EXPECT_EQ(read["host-5"]["values"]["temperature"], "0x308");  // 97 C
  EXPECT_EQ(unread.size(), 12u);
  EXPECT_EQ(unread.count("host-1"), 1u);
  // By name (and GUID): only those; the whole register; a CR-space register by name; the table.
  const json two = tool_json("ibcon", {"-n", "leaf-2", "-n", "host-5", "MTMP"}, 0);
  ASSERT_EQ(two["nodes"].size(), 2u) << two.dump(2);
  EXPECT_EQ(two["nodes"][0]["values"]["temperature_threshold_hi"], "0x348");  // 105 C
  const json hw = tool_json("ibcon", {"-n", "host-5", "hw_id"}, 0);
  ASSERT_EQ(hw["nodes"].size(), 1u) << hw.dump(2);
  EXPECT_EQ(hw["nodes"][0]["device"], "ConnectX-4") << hw.dump(2);
  const auto table = tool("ibcon", {"-n", "host-5", "-n", "host-1", "MTMP.temperature"});
  EXPECT_EQ(table.exit_code, 1) << table.out << table.err;
  EXPECT_NE(table.out.find("temperature=0x308"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("-- no vendor access"), std::string::npos) << table.out;
  EXPECT_EQ(tool("ibcon", {"-n", "nobody", "MGIR"}).exit_code, 4);
  EXPECT_EQ(tool("ibcon", {"MTMP.nofield"}).exit_code, 2);
  EXPECT_EQ(tool("ibcon", {}).exit_code, 2);  // no register named: a usage error
}

}  // namespace
}  // namespace openflint::test
