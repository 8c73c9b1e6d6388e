// Hostile outputs, interrupted: SIGINT/SIGTERM during `archive extract -o` leaves neither the output nor its temp file.
#include <signal.h>

#include <chrono>
#include <thread>

#include "core/ChildProcess.h"
#include "image/MfaWriter.h"
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> temp_files_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) found.push_back(e.path().string());
  return found;
}

// A board large enough (uncompressed) that extracting it takes a while, so the signal lands
// while the temp file is being written.
class InterruptTest : public HostileTest {
 protected:
  void SetUp() override {
    MfaWriteOptions o;
    o.compress = false;
    MfaWriter writer(o);
    std::vector<std::uint8_t> image = hostile_fs2_image();
    image.resize(std::size_t{32} << 20, 0x5a);  // under the largest flash: a board a bound must accept
    ASSERT_TRUE(writer.add_board({"MT_1090120019", "MCX000-TEST", "big", FwVersion{2, 42, 5000}, std::move(image)}));
    archive_ = path("big.mfa");
    ASSERT_TRUE(writer.write_file(archive_));
  }
  std::string archive_;
};

TEST_F(InterruptTest, SignalDuringExtractRemovesTheTempFile) {
  int interrupted = 0;
  for (const int sig : {SIGINT, SIGTERM}) {
    // The signal must land while the temp file exists; a run that finished first is retried.
    for (int attempt = 0; attempt < 8; ++attempt) {
      SCOPED_TRACE(std::string(::strsignal(sig)) + ", attempt " + std::to_string(attempt));
      const std::string out = path("board.bin");
      SpawnSpec spec;  // stdin, stdout and stderr on /dev/null
      spec.argv = {bin("flint").string(), "-i", archive_, "archive", "extract", "--psid", "MT_1090120019", "-o", out};
      auto tool = ChildProcess::spawn(spec);
      ASSERT_TRUE(tool.has_value()) << tool.error().message();
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      bool seen = false;
      while (std::chrono::steady_clock::now() < deadline && tool->running()) {
        if (!temp_files_in(dir_.path()).empty()) {
          seen = true;
          tool->signal(sig);
          break;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      if (!seen) tool->signal(SIGKILL);
      const int status = tool->wait_for(std::chrono::hours(1)).value_or(0);  // exit code, or minus the signal
      if (seen && status < 0) {
        EXPECT_EQ(-status, sig) << "the tool should end by the signal it got";
        EXPECT_EQ(temp_files_in(dir_.path()), std::vector<std::string>{}) << "the interrupted extract left its temp file";
        EXPECT_FALSE(fs::exists(out)) << "an interrupted extract produced the output";
        ++interrupted;
        break;
      }
      // Finished before the signal: not the case under test; start over.
      fs::remove(out);
      for (const auto& t : temp_files_in(dir_.path())) fs::remove(t);
    }
  }
  EXPECT_EQ(interrupted, 2) << "could not interrupt an extract while its temp file existed";
}

}  // namespace
}  // namespace openflint::test
