// ibtopogen: the file it writes parses back to the fat tree's cables; --ibsim names the nodes after
// the systems; bad numbers are a usage error; --version.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fabric/Topology.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using Port = Topology::Port;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Ibtopogen, SmallTreeParsesBackWithTheExpectedCables) {
  TempDir dir;
  const auto r = run_tool("ibtopogen", {"--spines", "2", "--leaves", "3", "--hosts-per-leaf", "2", "--leaf-ports", "8",
                                        "--host-name", "node%d", "-o", (dir / "fat.topo").string(), "--ibsim",
                                        (dir / "fat.ibsim").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto t = Topology::parse(slurp(dir / "fat.topo"));
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->systems().size(), 2u + 3u + 6u);
  EXPECT_EQ(t->cables().size(), 3u * 2u + 3u * 2u);
  EXPECT_EQ(t->peer(Port{"leaf-3", 2}), (Port{"node6", 1}));
  EXPECT_EQ(t->peer(Port{"leaf-2", 3}), (Port{"spine-1", 2}));
  EXPECT_EQ(t->peer(Port{"spine-2", 3}), (Port{"leaf-3", 4}));
  EXPECT_EQ(t->find_system("node1")->type, "MT27700");
  // ibsim gets the switch type's port count (36); --leaf-ports only bounds what is cabled.
  const auto ibsim = slurp(dir / "fat.ibsim");
  EXPECT_NE(ibsim.find("Switch 36 \"leaf-1\"\n[1] \"node1\"[1]"), std::string::npos) << ibsim;
  EXPECT_NE(ibsim.find("Hca 2 \"node6\"\n[1] \"leaf-3\"[2]"), std::string::npos) << ibsim;
}

TEST(Ibtopogen, StandardOutputAndErrors) {
  const auto r = run_tool("ibtopogen", {"--spines", "1", "--leaves", "1", "--hosts-per-leaf", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("MT52000 leaf-1\nP1 -> MT27700 host-1 P1\nP2 -> MT52000 spine-1 P1\n"), std::string::npos)
      << r.out;
  const auto too_many = run_tool("ibtopogen", {"--hosts-per-leaf", "40"});  // 40 + 2 > 36 ports
  EXPECT_EQ(too_many.exit_code, 2) << too_many.err;
  EXPECT_NE(too_many.err.find("-E- 40 hosts and 2 uplinks do not fit 36 leaf ports"), std::string::npos)
      << too_many.err;
  EXPECT_EQ(run_tool("ibtopogen", {"--host-type", "MT12345"}).exit_code, 2);  // not in the catalog
  const auto version = run_tool("ibtopogen", {"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_TRUE(version.out.starts_with("ibtopogen (openflint) ")) << version.out;
}

}  // namespace
}  // namespace openflint::test
