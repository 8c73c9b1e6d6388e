// test_version: every installed tool answers --version with one "TOOL (openflint) X.Y.Z" line
// (help2man builds the man pages' headers from it), exit 0; and every tool exits 2 (usage) on an
// option it does not know.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

TEST(ToolVersion, EveryToolPrintsOneVersionLine) {
  const std::regex line{R"(([a-z-]+) \(openflint\) [0-9]+\.[0-9]+\.[0-9]+\n)"};
  for (const char* tool : {"flint", "fwburn", "hcasim", "ibfwmgr", "simfabric", "ibsim-responder"}) {
    const auto r = run_tool(tool, {"--version"});
    EXPECT_EQ(r.exit_code, 0) << tool << ": " << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(r.out, m, line)) << tool << ": '" << r.out << "'";
    EXPECT_EQ(m[1], tool);
  }
  EXPECT_EQ(run_tool("fwburn", {"-version"}).exit_code, 0);  // mlxburn's single dash
}

TEST(ToolVersion, SimfabricAndResponderHelpGoToStdout) {
  for (const char* tool : {"simfabric", "ibsim-responder"}) {
    const auto r = run_tool(tool, {"--help"});
    EXPECT_EQ(r.exit_code, 0) << tool;
    EXPECT_NE(r.out.find("Usage: "), std::string::npos) << tool << ": " << r.out;
  }
}

// Usage errors are exit 2 everywhere (cli/ExitCode.h), never CLI11's own codes (100-127): the
// message goes to stderr, nothing to stdout.
TEST(ToolUsage, EveryToolExitsTwoOnAnOptionItDoesNotKnow) {
  for (const char* tool : {"flint", "fwburn", "hcasim", "ibfwmgr", "mst", "simfabric", "ibsim-responder", "mtcr-tool",
                           "ibls", "ibmon", "ibcon", "ibtopogen"}) {
    const auto r = run_tool(tool, {"--no-such-option"});
    EXPECT_EQ(r.exit_code, 2) << tool << ": " << r.err;
    EXPECT_EQ(r.out, "") << tool;
    EXPECT_NE(r.err, "") << tool;
  }
}

}  // namespace
}  // namespace openflint::test
