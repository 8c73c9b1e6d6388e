// Hostile outputs, interrupted: SIGINT/SIGTERM during `archive extract -o` leaves neither the output nor its temp file.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "image/MfaWriter.h"
#include "tests/hostile/HostileFixture.h"

extern char** environ;

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> temp_files_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) found.push_back(e.path().string());
  return found;
}

// Starts argv with stdin/stdout/stderr on /dev/null; the caller signals and reaps it.
pid_t spawn_quiet(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (int fd = 0; fd <= 2; ++fd) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  pid_t pid = -1;
  if (::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
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
      const pid_t pid = spawn_quiet({bin("flint").string(), "-i", archive_, "archive", "extract", "--psid", "MT_1090120019",
                                     "-o", out});
      ASSERT_GT(pid, 0);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      bool seen = false;
      int status = 0;
      bool exited = false;
      while (std::chrono::steady_clock::now() < deadline) {
        if (!temp_files_in(dir_.path()).empty()) {
          seen = true;
          ::kill(pid, sig);
          break;
        }
        if (::waitpid(pid, &status, WNOHANG) == pid) {
          exited = true;
          break;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      if (!seen && !exited) ::kill(pid, SIGKILL);
      if (!exited) {
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
      }
      if (seen && WIFSIGNALED(status)) {
        EXPECT_EQ(WTERMSIG(status), sig) << "the tool should end by the signal it got";
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
