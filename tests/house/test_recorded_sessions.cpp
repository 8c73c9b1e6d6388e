// Every recorded session in tests/house/sessions/NAME/ (scripts/record-session.sh, docs/recording.md)
// replays into its tool with the stdout and exit code it had when it was recorded.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

std::string text_of(const std::filesystem::path& file) {
  const std::vector<std::uint8_t> bytes = read_file(file);
  return {bytes.begin(), bytes.end()};
}

TEST(RecordedSessions, EachReplaysWithItsRecordedOutput) {
  const std::filesystem::path root = std::filesystem::path(OPENFLINT_SOURCE_DIR) / "tests" / "house" / "sessions";
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::filesystem::path dir = entry.path();
    SCOPED_TRACE(dir.filename().string());
    std::istringstream command(text_of(dir / "command"));
    std::vector<std::string> argv;
    for (std::string line; std::getline(command, line);) {
      if (argv.empty()) line = bin(line).string();
      else if (line == "{dev}") line = "replay:" + (dir / "session.gz").string();
      argv.push_back(line);
    }
    ASSERT_GE(argv.size(), 2u) << "empty command file";
    const CommandResult r = run_command(argv);
    EXPECT_EQ(std::to_string(r.exit_code) + "\n", text_of(dir / "exit")) << r.err;
    EXPECT_EQ(r.out, text_of(dir / "stdout")) << r.err;
    ++replayed;
  }
  EXPECT_GE(replayed, 1) << "no recorded session in " << root;
}

}  // namespace
}  // namespace openflint::test
