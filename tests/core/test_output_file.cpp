// Tests for OutputFile: atomic replace of regular files, write-through of FIFOs, refusals that keep the path, no temp left.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/OutputFile.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

std::size_t temp_files(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().find(".tmp-") != std::string::npos;
  return n;
}

TEST(OutputFile, ReplacesARegularFileOnlyOnCommitKeepingItsMode) {
  test::TempDir dir;
  const std::string path = (dir / "out.bin").string();
  test::write_file(path, {1, 2, 3});
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  const auto bytes = test::random_bytes(100000, 3);
  {
    auto out = OutputFile::create(path);
    ASSERT_THAT(out, test::IsOk());
    EXPECT_FALSE(out->writes_through());
    ASSERT_TRUE(out->write(bytes));
    EXPECT_EQ(test::read_file(path), (std::vector<std::uint8_t>{1, 2, 3})) << "visible before commit";
    EXPECT_EQ(temp_files(dir.path()), 1u);
    ASSERT_TRUE(out->commit());
  }
  EXPECT_EQ(test::read_file(path), bytes);
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(temp_files(dir.path()), 0u);
}

TEST(OutputFile, ADroppedOutputLeavesTheOldFileAndNoTemp) {
  test::TempDir dir;
  const std::string path = (dir / "out.bin").string();
  test::write_file(path, {9});
  for (int i = 0; i < 3 * TempPathRegistration::kSlots; ++i) {  // slots are reused
    auto out = OutputFile::create(path);
    ASSERT_TRUE(out);
    ASSERT_TRUE(out->write(test::random_bytes(64, i)));
  }
  EXPECT_EQ(test::read_file(path), std::vector<std::uint8_t>{9});
  EXPECT_EQ(temp_files(dir.path()), 0u);
}

TEST(OutputFile, WritesThroughAFifoThatIsReadAndRefusesOneThatIsNot) {
  test::TempDir dir;
  const std::string fifo = (dir / "f").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto unread = OutputFile::create(fifo);
  ASSERT_THAT(unread, test::FailsWith(ErrorCode::Io));
  EXPECT_NE(unread.error().message().find("nobody reads"), std::string::npos) << unread.error().message();

  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  auto out = OutputFile::create(fifo);
  ASSERT_THAT(out, test::IsOk());
  EXPECT_TRUE(out->writes_through());
  ASSERT_TRUE(out->write(std::vector<std::uint8_t>{'h', 'i'}));
  ASSERT_TRUE(out->commit());
  char buf[8] = {};
  EXPECT_EQ(::read(reader, buf, sizeof buf), 2);
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(OutputFile, RefusesLinksAndDirectoriesAndLeavesThemAsTheyAre) {
  test::TempDir dir;
  test::write_file(dir / "target", {7});
  fs::create_symlink(dir / "target", dir / "link");
  fs::create_symlink(dir / "missing", dir / "dangling");
  fs::create_directory(dir / "sub");
  for (const char* name : {"link", "dangling", "sub"}) {
    SCOPED_TRACE(name);
    auto out = OutputFile::create((dir / name).string());
    ASSERT_THAT(out, test::FailsWith(ErrorCode::Io));
    EXPECT_NE(out.error().message().find("not replacing it"), std::string::npos) << out.error().message();
  }
  EXPECT_TRUE(fs::is_symlink(dir / "link"));
  EXPECT_TRUE(fs::is_symlink(dir / "dangling"));
  EXPECT_FALSE(fs::exists(dir / "missing"));
  EXPECT_EQ(test::read_file(dir / "target"), std::vector<std::uint8_t>{7});
  EXPECT_EQ(temp_files(dir.path()), 0u);
}

TEST(OutputFile, AStateFileIsOnlyEverARegularFileReplaced) {
  // A tool's own file in a directory others may write: a FIFO, a link or a dangling link
  // planted there is refused (never written through or followed); a regular file is replaced.
  test::TempDir dir;
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a reader: Output would write through
  ASSERT_GE(reader, 0);
  test::write_file(dir / "target", {7});
  fs::create_symlink(dir / "target", dir / "link");
  fs::create_symlink(dir / "missing", dir / "dangling");
  for (const char* name : {"fifo", "link", "dangling"}) {
    SCOPED_TRACE(name);
    auto out = OutputFile::create((dir / name).string(), "state.json", OutputFile::Role::State);
    ASSERT_THAT(out, test::FailsWith(ErrorCode::Io));
    EXPECT_NE(out.error().message().find("not replacing it"), std::string::npos) << out.error().message();
    EXPECT_EQ(out.error().message().find("give the path"), std::string::npos) << "no user named this path";
  }
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "missing")));
  EXPECT_EQ(test::read_file(dir / "target"), std::vector<std::uint8_t>{7});

  ASSERT_TRUE(write_output_file((dir / "target").string(), std::vector<std::uint8_t>{8}));  // an Output still is
  auto state = OutputFile::create((dir / "target").string(), "state.json", OutputFile::Role::State);
  ASSERT_THAT(state, test::IsOk());
  ASSERT_TRUE(state->write(std::vector<std::uint8_t>{9}));
  ASSERT_TRUE(state->commit());
  EXPECT_EQ(test::read_file(dir / "target"), std::vector<std::uint8_t>{9});
  EXPECT_EQ(temp_files(dir.path()), 0u);
}

}  // namespace
}  // namespace openflint
