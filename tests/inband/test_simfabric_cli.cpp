// simfabric up/run: a fabric of hcasim devices in the foreground, clients through 'run', clean teardown.
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/inband/DeviceFabricFixture.h"

namespace openflint::test {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SimfabricCli, UpRunAndTeardownLeaveNothingBehind) {
  for (const char* tool : {"ibsim", "opensm", "ibaddr"}) {
    if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed";
  }
  TempDir dir;
  const auto image = dir.path() / "cx4.bin";
  write_file(image, small_fs3_image(10));
  const auto fabric_dir = dir.path() / "fabric";
  const auto log = dir.path() / "up.log";
  auto up = ChildProcess::spawn(SpawnSpec{{bin("simfabric").string(), "up", "--dir", fabric_dir.string(), "--hca",
                                           "connectx4:" + image.string(), "--hca", "connectx3"},
                                          {}, dir.path(), log, {}});
  ASSERT_TRUE(up) << up.error().message();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (slurp(log).find("stops it") == std::string::npos) {
    ASSERT_TRUE(up->running()) << slurp(log);
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << slurp(log);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::string text = slurp(log);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(Hca2\s+connectx4\s+lid-(\d+))"))) << text;
  const std::string lid = m[1];
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(ibsim socket (\S+)\))"))) << text;
  const std::string socket = m[1];

  auto q = ChildProcess::run(SpawnSpec{{bin("simfabric").string(), "run", "--dir", fabric_dir.string(), "--",
                                        bin("flint").string(), "-d", "lid-" + lid, "q"},
                                       {}, dir.path(), {}, {}},
                             120000);
  ASSERT_TRUE(q) << q.error().message();
  EXPECT_EQ(q->exit_code, 0) << q->out << q->err;
  EXPECT_NE(q->out.find("FW Version(Running):   12.10.1000"), std::string::npos) << q->out;

  EXPECT_EQ(up->stop(10000), 0) << slurp(log);
  EXPECT_NE(slurp(log).find("fabric stopped"), std::string::npos) << slurp(log);
  EXPECT_EQ(slurp("/proc/net/unix").find("@" + socket + ":"), std::string::npos) << "ibsim still listens";
  for (const auto& e : std::filesystem::directory_iterator(fabric_dir))
    EXPECT_FALSE(e.path().filename().string().starts_with("sys-")) << e.path();
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_FALSE(e.path().filename().string().starts_with("sys-")) << e.path();
  EXPECT_FALSE(std::filesystem::exists(fabric_dir / "fabric.env"));
  EXPECT_TRUE(std::filesystem::exists(fabric_dir / "devices" / "Hca2" / "state.json"));
  EXPECT_TRUE(std::filesystem::exists(fabric_dir / "devices" / "Hca3" / "state.json"));
}

}  // namespace
}  // namespace openflint::test
