// Hostile outputs: every output option writes through a device or a read FIFO, refuses links and the like, never replaces them, leaves no temp file.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <iostream>
#include <thread>

#include "image/MfaWriter.h"
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

const std::string kSamples = std::string(OPENFLINT_SOURCE_DIR) + "/firmware-samples/connectx3/";
constexpr const char* kPsid = "MT_1090120019";

// The kind of what is at `p` without following a link ("regular file", "FIFO", ...).
std::string kind_of(const std::string& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0) return "nothing";
  switch (st.st_mode & S_IFMT) {
    case S_IFREG: return "regular file";
    case S_IFDIR: return "directory";
    case S_IFIFO: return "FIFO";
    case S_IFCHR: return "character device";
    case S_IFSOCK: return "socket";
    case S_IFLNK: return "symbolic link";
  }
  return "other";
}

std::vector<std::string> temp_files_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp") != std::string::npos) found.push_back(e.path().string());
  return found;
}

// Reads a FIFO from before the tool opens it until told to stop (then drains it).
class FifoReader {
 public:
  explicit FifoReader(const std::string& fifo) : fd_(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {
    EXPECT_GE(fd_, 0) << "open " << fifo;
    thread_ = std::thread([this] {
      std::vector<std::uint8_t> buf(65536);
      for (bool last = false;;) {
        const ssize_t n = ::read(fd_, buf.data(), buf.size());
        if (n > 0) {
          bytes_.insert(bytes_.end(), buf.begin(), buf.begin() + n);
          continue;
        }
        if (last) return;
        if (stop_.load()) last = true;  // one more pass after the writer is gone
        else ::usleep(500);
      }
    });
  }
  std::vector<std::uint8_t> finish() {
    stop_.store(true);
    thread_.join();
    ::close(fd_);
    return bytes_;
  }

 private:
  int fd_;
  std::atomic<bool> stop_{false};
  std::vector<std::uint8_t> bytes_;
  std::thread thread_;
};

// A character device standing for /dev/null. Never the system's own node: a tool that replaces
// its output (the bug under test) would destroy it when run as root. Root makes a private node
// (1,3) in the temp dir; without root, /dev/null itself is safe — we could not replace it.
// Empty when neither is possible (root without CAP_MKNOD): that case is then reported as not run.
std::string private_null(const fs::path& dir) {
  const std::string node = (dir / "null").string();
  if (::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) return node;
  if (::geteuid() != 0) return "/dev/null";
  std::cerr << "[ NOT RUN  ] character-device outputs: mknod as root failed (" << std::strerror(errno) << ")\n";
  return {};
}

class OutputTest : public HostileTest {
 protected:
  void SetUp() override {
    null_ = private_null(dir_.path());
    dev_ = create_device();
    MfaWriter writer;
    ASSERT_TRUE(writer.add_board({kPsid, "MCX000-TEST", "hostile outputs", FwVersion{2, 42, 5000}, hostile_fs2_image()}));
    archive_ = path("fw.mfa");
    ASSERT_TRUE(writer.write_file(archive_));
    const HostileRun gen = run_hostile(
        "fwburn", {"-fw", kSamples + "new.fwdesc", "-conf", kSamples + "new.ini", "-wrimage", path("with-ini.bin")});
    ASSERT_EQ(gen.result.exit_code, 0) << gen.result.err;
  }

  // Every option that names an output file, with X standing for the output path.
  std::vector<std::vector<std::string>> output_positions(const std::string& x) const {
    return {
        {"flint", "-i", archive_, "archive", "extract", "--psid", kPsid, "-o", x},
        {"flint", "-i", path("with-ini.bin"), "dc", x},
        {"flint", "-d", dev_, "rb", "0x0", "0x2000", x},
        {"flint", "-d", dev_, "ri", x},
        {"fwburn", "-fw", kSamples + "new.fwdesc", "-conf", kSamples + "new.ini", "-wrimage", x},
    };
  }

  static HostileRun run(const std::vector<std::string>& argv) {
    return run_hostile(argv[0], std::vector<std::string>(argv.begin() + 1, argv.end()));
  }

  std::string null_;
  std::string dev_;
  std::string archive_;
};

// What each command writes to a plain new file: the reference for the write-through cases.
TEST_F(OutputTest, DevicesAndReadFifosAreWrittenThroughNotReplaced) {
  int cases = 0;
  for (const auto& argv_template : output_positions("X")) {
    const std::string plain = path("plain.out");
    std::vector<std::string> argv = argv_template;
    std::replace(argv.begin(), argv.end(), std::string("X"), plain);
    const HostileRun reference = run(argv);
    ASSERT_EQ(reference.result.exit_code, 0) << reference.command << "\n" << reference.result.err;
    const std::vector<std::uint8_t> expected = read_file(plain);
    ASSERT_FALSE(expected.empty()) << reference.command;
    fs::remove(plain);

    if (!null_.empty()) {
      std::replace(argv.begin(), argv.end(), plain, null_);
      const HostileRun to_null = run(argv);
      expect_orderly(to_null);
      EXPECT_EQ(to_null.result.exit_code, 0) << to_null.command << "\n" << to_null.result.err;
      ASSERT_EQ(kind_of(null_), "character device") << to_null.command << ": the device node was replaced";
      std::replace(argv.begin(), argv.end(), null_, plain);
      ++cases;
    }

    const std::string fifo = path("read.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::replace(argv.begin(), argv.end(), plain, fifo);
    FifoReader reader(fifo);
    const HostileRun to_fifo = run(argv);
    const std::vector<std::uint8_t> got = reader.finish();
    expect_orderly(to_fifo);
    EXPECT_EQ(to_fifo.result.exit_code, 0) << to_fifo.command << "\n" << to_fifo.result.err;
    EXPECT_EQ(kind_of(fifo), "FIFO") << to_fifo.command << ": the FIFO was replaced";
    EXPECT_EQ(got, expected) << to_fifo.command << ": " << got.size() << " bytes through the FIFO, expected "
                             << expected.size();
    fs::remove(fifo);
    EXPECT_EQ(temp_files_in(dir_.path()), std::vector<std::string>{}) << to_fifo.command;
    ++cases;
  }
  RecordProperty("cases", cases);
}

struct RefusedOutput {
  std::string kind;      // what the path is, and stays
  std::string path;
  std::string message;   // in the "-E-" line
};

TEST_F(OutputTest, LinksDirectoriesSocketsAndUnreadFifosAreRefusedAndKept) {
  write_file(dir_ / "target.bin", {'k', 'e', 'e', 'p'});
  fs::create_symlink(path("target.bin"), path("link.out"));
  fs::create_symlink(path("nowhere.bin"), path("dangling.out"));
  fs::create_directories(path("dir.out"));
  const std::string unread = path("unread.fifo");
  ASSERT_EQ(::mkfifo(unread.c_str(), 0600), 0);
  std::vector<RefusedOutput> outputs = {
      {"symbolic link", path("link.out"), "symbolic link"},
      {"symbolic link", path("dangling.out"), "symbolic link"},
      {"directory", path("dir.out"), "directory"},
      {"FIFO", unread, "nobody reads"},
  };
  for (const SpecialFile& s : special_files())
    if (s.kind == "socket") outputs.push_back({"socket", s.path, "socket"});
  int cases = 0;
  for (const RefusedOutput& out : outputs) {
    for (const auto& argv : output_positions(out.path)) {
      SCOPED_TRACE(out.kind + " " + out.path);
      const HostileRun r = run(argv);
      expect_refused(r, 4, out.message);
      EXPECT_EQ(kind_of(out.path), out.kind) << r.command << ": the output was replaced";
      EXPECT_EQ(read_file(dir_ / "target.bin"), (std::vector<std::uint8_t>{'k', 'e', 'e', 'p'})) << r.command;
      EXPECT_FALSE(fs::exists(path("nowhere.bin"))) << r.command << ": wrote through a dangling link";
      EXPECT_EQ(temp_files_in(dir_.path()), std::vector<std::string>{}) << r.command;
      ++cases;
    }
  }
  // An image patched in place (sg) is an output too: a link to it is not replaced by a file.
  fs::copy_file(path("with-ini.bin"), path("image.bin"));
  fs::create_symlink(path("image.bin"), path("image-link.bin"));
  const HostileRun sg = run_hostile("flint", {"-i", path("image-link.bin"), "sg", "0x0002c90300000001"});
  expect_refused(sg, 4, "symbolic link");
  EXPECT_EQ(kind_of(path("image-link.bin")), "symbolic link");
  RecordProperty("cases", cases + 1);
}

}  // namespace
}  // namespace openflint::test
