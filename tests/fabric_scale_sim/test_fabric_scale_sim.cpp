// 'simfabric up --topology --firmware': a 64-node ibtopogen fat tree with a simulated device on
// every node, one process answering for all of them; every node is queried in-band and answers
// with its own GUIDs; stopping (or killing) the fabric leaves no process and no socket.
#include <signal.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/fabric_scale_sim/TopologyFabricFiles.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
constexpr const char* kPreload = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

class FabricScaleSim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kPreload)) GTEST_SKIP() << "umad2sim (ibsim-utils) is not installed";
    for (const char* s : {"switchx-old", "connectx3-old"})
      if (!fs::exists(sample_image(s))) GTEST_SKIP() << "firmware sample " << s << " was not built";
  }

  // ibtopogen's fat tree of switchx switches and connectx3 hosts, as an ibsim topology.
  fs::path fat_tree(int spines, int leaves, int hosts) {
    const auto ibsim = dir_ / "fat.ibsim";
    const auto gen = run_tool("ibtopogen", {"--spines", std::to_string(spines), "--leaves", std::to_string(leaves),
                                            "--hosts-per-leaf", std::to_string(hosts), "--switch-type", "switchx",
                                            "--host-type", "connectx3", "-o", (dir_ / "fat.topo").string(), "--ibsim",
                                            ibsim.string()});
    EXPECT_EQ(gen.exit_code, 0) << gen.err;
    return ibsim;
  }

  // Starts 'simfabric up --firmware' and waits for its "stops it" line.
  std::optional<ChildProcess> up(const fs::path& topology) {
    auto child = ChildProcess::spawn(SpawnSpec{{bin("simfabric").string(), "up", "--dir", fabric_.string(), "--topology",
                                                topology.string(), "--firmware"},
                                               {}, dir_.path(), log_, {}});
    EXPECT_TRUE(child) << child.error().message();
    if (!child) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (read_text(log_).find("stops it") == std::string::npos) {
      if (!child->running() || std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "simfabric up did not come up: " << read_text(log_);
        return std::nullopt;  // the child's destructor stops it
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::move(*child);
  }

  CapturedRun client(std::vector<std::string> argv) {
    argv.insert(argv.begin(), {bin("simfabric").string(), "run", "--dir", fabric_.string(), "--"});
    auto r = ChildProcess::run(SpawnSpec{argv, {}, dir_.path(), {}, {}}, 60000);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  }

  TempDir dir_;
  fs::path fabric_ = dir_ / "fabric";
  fs::path log_ = dir_ / "up.log";
};

TEST_F(FabricScaleSim, SixtyFourNodesEachAnswerInBandWithTheirOwnIdentity) {
  const auto topology = fat_tree(4, 12, 4);  // 4 spines + 12 leaves + 48 hosts
  auto fabric = up(topology);
  ASSERT_TRUE(fabric);
  const std::string socket = fabric_socket(read_text(log_));
  ASSERT_FALSE(socket.empty()) << read_text(log_);
  EXPECT_NE(read_text(log_).find("64 nodes, 64 devices: connectx3×48 switchx×16"), std::string::npos) << read_text(log_);

  const auto nodes = topology_nodes(fabric_ / "nodes.txt");
  ASSERT_EQ(nodes.size(), 64u);
  std::map<std::string, int> guids;
  for (const auto& n : nodes) {
    SCOPED_TRACE(n.name + " " + n.lid);
    EXPECT_EQ(n.model, n.name.starts_with("host") ? "connectx3" : "switchx");
    ++guids[n.guid];
    const auto q = client({bin("flint").string(), "-d", n.lid, "q"});
    ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_NE(q.out.find("FW Version:"), std::string::npos) << q.out;
    // Its own GUIDs in its own flash: the node GUID the fabric gives it, as flint prints GUIDs.
    ASSERT_EQ(n.guid.size(), 18u);
    EXPECT_NE(q.out.find(n.guid.substr(2)), std::string::npos) << "GUID " << n.guid << " not in:\n" << q.out;
  }
  EXPECT_EQ(guids.size(), 64u) << "node GUIDs are not distinct";

  // The fabric is discovered as a subnet manager would see it: ibfwmgr lists every node.
  const auto list = client({bin("ibfwmgr").string(), "list", "--json"});
  EXPECT_EQ(list.exit_code, 0) << list.out << list.err;
  const auto listed = nlohmann::json::parse(list.out, nullptr, false);
  ASSERT_FALSE(listed.is_discarded()) << list.out << list.err;
  EXPECT_NE(list.out.find(nodes.back().guid.substr(2)), std::string::npos) << list.out;

  const auto stats = nlohmann::json::parse(read_text(fabric_ / "stats.json"), nullptr, false);
  ASSERT_FALSE(stats.is_discarded());
  EXPECT_EQ(stats["devices"], 64);

  const pid_t pid = fabric->pid();
  EXPECT_EQ(fabric->stop(10000), 0) << read_text(log_);
  EXPECT_NE(::kill(pid, 0), 0) << "the fabric process is still there";
  EXPECT_EQ(read_text("/proc/net/unix").find("@" + socket + ":"), std::string::npos) << "the fabric still listens";
  EXPECT_FALSE(fs::exists(fabric_ / "fabric.env"));
  for (const auto& e : fs::directory_iterator(fabric_))
    EXPECT_FALSE(e.path().filename().string().starts_with("sys-")) << "a client left its preload dir " << e.path();
}

TEST_F(FabricScaleSim, AKilledFabricLeavesNoSocketAndABadTopologyStartsNothing) {
  auto fabric = up(fat_tree(1, 1, 1));
  ASSERT_TRUE(fabric);
  const std::string socket = fabric_socket(read_text(log_));
  ASSERT_FALSE(socket.empty());
  EXPECT_NE(read_text("/proc/net/unix").find("@" + socket + ":ctl"), std::string::npos);
  ASSERT_EQ(::kill(fabric->pid(), SIGKILL), 0);
  (void)fabric->stop(5000);  // reaps it
  EXPECT_EQ(read_text("/proc/net/unix").find("@" + socket + ":"), std::string::npos);

  std::ofstream(dir_ / "bad.ibsim") << "vendid=0x02c9\ndevid=0x1003\nHca 1 \"h\"\n[1] \"nowhere\"[1]\n";
  const auto r = run_tool("simfabric", {"up", "--dir", (dir_ / "bad").string(), "--topology",
                                        (dir_ / "bad.ibsim").string(), "--firmware"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("no node \"nowhere\""), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad" / "fabric.env"));
}

}  // namespace
}  // namespace openflint::test
