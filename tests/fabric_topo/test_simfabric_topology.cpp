// The documented flow: ibtopogen writes both files, 'simfabric up --topology' brings the fabric up,
// 'simfabric run -- ibls -e' finds it as declared; a hosts map renames a node; teardown is clean.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SimfabricTopology, IbtopogenFabricUpThenIblsChecksIt) {
  for (const char* tool : {"ibsim", "opensm"}) {
    if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed";
  }
  TempDir dir;
  const auto topo = dir / "fat.topo";
  const auto ibsim = dir / "fat.ibsim";
  const auto gen = run_tool("ibtopogen", {"--spines", "2", "--leaves", "2", "--hosts-per-leaf", "2", "-o",
                                          topo.string(), "--ibsim", ibsim.string()});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const auto fabric_dir = dir / "fabric";
  const auto log = dir / "up.log";
  auto up = ChildProcess::spawn(SpawnSpec{
      {bin("simfabric").string(), "up", "--dir", fabric_dir.string(), "--topology", ibsim.string()}, {}, dir.path(), log, {}});
  ASSERT_TRUE(up) << up.error().message();  // stopped (SIGTERM + wait) by its destructor on any failure below
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (slurp(log).find("stops it") == std::string::npos) {
    ASSERT_TRUE(up->running()) << slurp(log);
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << slurp(log);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(slurp(log).find("SIM_HOST=host-1 "), std::string::npos) << slurp(log);  // the file's first Hca
  std::smatch m;
  const std::string text = slurp(log);
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(ibsim socket (\S+)\))"))) << text;
  const std::string socket = m[1];

  const auto ibls = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{bin("simfabric").string(), "run", "--dir", fabric_dir.string(), "--",
                                  bin("ibls").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = ChildProcess::run(SpawnSpec{argv, {}, dir.path(), {}, {}}, 60000);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  };
  const auto checked = ibls({"-t", topo.string(), "-e"});
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("Systems (8):"), std::string::npos) << checked.out;
  EXPECT_NE(checked.out.find("Cables (8):"), std::string::npos) << checked.out;
  EXPECT_NE(checked.out.find("the cabling matches the topology file"), std::string::npos) << checked.out;

  // A hosts map names host-2's node "login-1" (its NodeDescription says host-2).
  const auto listed = nlohmann::json::parse(ibls({"--json", "--no-fw", "-n", "host-2"}).out, nullptr, false);
  ASSERT_FALSE(listed.is_discarded());
  ASSERT_EQ(listed["systems"].size(), 1u) << listed.dump(2);
  const std::string guid = listed["systems"][0]["guid"];
  std::ofstream(dir / "hosts") << "# name GUID\nlogin-1 " << guid << "\n";
  const auto renamed =
      nlohmann::json::parse(ibls({"--json", "--no-fw", "--names", (dir / "hosts").string(), "-g", guid}).out, nullptr, false);
  ASSERT_FALSE(renamed.is_discarded());
  ASSERT_EQ(renamed["systems"].size(), 1u) << renamed.dump(2);
  EXPECT_EQ(renamed["systems"][0]["name"], "login-1");
  EXPECT_EQ(renamed["cables"][0]["b"]["system"], "login-1") << renamed.dump(2);  // "leaf-1" sorts first

  EXPECT_EQ(up->stop(10000), 0) << slurp(log);
  EXPECT_NE(slurp(log).find("fabric stopped"), std::string::npos) << slurp(log);
  EXPECT_EQ(slurp("/proc/net/unix").find("@" + socket + ":"), std::string::npos) << "ibsim still listens";
  for (const auto& e : std::filesystem::directory_iterator(fabric_dir))
    EXPECT_FALSE(e.path().filename().string().starts_with("sys-")) << e.path();
  EXPECT_FALSE(std::filesystem::exists(fabric_dir / "fabric.env"));
}

TEST(SimfabricTopology, TopologyAndDevicesDoNotMix) {
  TempDir dir;
  std::ofstream(dir / "t") << "Hca 1 \"a\"\n";
  const auto r = run_tool("simfabric", {"up", "--dir", (dir / "f").string(), "--topology", (dir / "t").string(),
                                        "--hca", "connectx4"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace openflint::test
