// Tests for StderrSilenced (fd 2 to /dev/null while held, nested, from several threads) and echoed_name.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "core/EchoedName.h"
#include "core/StderrSilenced.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

// fd 2 goes to a file for the test's lifetime, and back afterwards.
class StderrToFile {
 public:
  explicit StderrToFile(const std::string& path) {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  ~StderrToFile() {
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }
  StderrToFile(const StderrToFile&) = delete;
  StderrToFile& operator=(const StderrToFile&) = delete;

 private:
  int saved_ = -1;
};

void say(const char* text) { (void)!::write(STDERR_FILENO, text, std::char_traits<char>::length(text)); }

TEST(StderrSilenced, HidesWhatIsWrittenWhileHeldNestedOrFromSeveralThreads) {
  test::TempDir dir;
  const std::string file = (dir / "stderr").string();
  {
    const StderrToFile capture(file);
    say("a");
    {
      const StderrSilenced outer;
      say("hidden1");
      {
        const StderrSilenced inner;
        say("hidden2");
      }
      say("hidden3");  // the inner guard's end must not bring stderr back
    }
    say("b");
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([] {
        for (int i = 0; i < 50; ++i) {
          const StderrSilenced quiet;
          say("x");
        }
      });
    for (auto& th : threads) th.join();
    say("c");
  }
  const auto bytes = test::read_file(file);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "abc");
}

TEST(EchoedName, ShortNamesAreQuotedWholeLongOnesCutAtACharacter) {
  EXPECT_EQ(echoed_name("mlx5_0"), "'mlx5_0'");
  const std::string exact(kMaxEchoedNameBytes, 'a');
  EXPECT_EQ(echoed_name(exact), "'" + exact + "'");
  const std::string longer(100000, 'b');
  const std::string cut = echoed_name(longer);
  EXPECT_EQ(cut, "'" + std::string(kMaxEchoedNameBytes, 'b') + "\u2026' (100000 bytes)");
  // A two-byte character straddling the cut is left out whole, not split.
  const std::string utf8 = std::string(kMaxEchoedNameBytes - 1, 'c') + "\u00e9" + std::string(10, 'd');
  EXPECT_EQ(echoed_name(utf8), "'" + std::string(kMaxEchoedNameBytes - 1, 'c') + "\u2026' (" +
                                   std::to_string(utf8.size()) + " bytes)");
}

}  // namespace
}  // namespace openflint
