// Tests for InputFile/MappedFile: special files refused by kind without blocking, sizes checked before reading.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "core/InputFile.h"
#include "core/MappedFile.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

TEST(InputFile, ReadsARegularFileWithinItsLimit) {
  test::TempDir dir;
  const auto bytes = test::random_bytes(5000, 1);
  test::write_file(dir / "f.bin", bytes);
  auto read = read_input_file((dir / "f.bin").string(), 5000);
  ASSERT_THAT(read, test::IsOk());
  EXPECT_EQ(*read, bytes);
  auto mapped = MappedFile::open((dir / "f.bin").string(), 5000);
  ASSERT_THAT(mapped, test::IsOk());
  EXPECT_TRUE(std::equal(mapped->bytes().begin(), mapped->bytes().end(), bytes.begin(), bytes.end()));
}

TEST(InputFile, RefusesAFileOneByteOverItsLimitBeforeReading) {
  test::TempDir dir;
  test::write_file(dir / "f.bin", test::random_bytes(5001, 2));
  const auto expect_limit_error = [](const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(error.message().find("image"), std::string::npos) << error.message();
    EXPECT_NE(error.message().find("5000-byte limit"), std::string::npos) << error.message();
  };
  auto file = InputFile::open((dir / "f.bin").string(), 5000, "image");
  ASSERT_FALSE(file.has_value());
  expect_limit_error(file.error());
  auto mapped = MappedFile::open((dir / "f.bin").string(), 5000, "image");
  ASSERT_FALSE(mapped.has_value());
  expect_limit_error(mapped.error());
}

TEST(InputFile, RefusesDirectoriesAndFifosByKindWithoutBlocking) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "d");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  std::filesystem::create_symlink(dir / "fifo", dir / "link");
  const struct {
    std::string name, kind;
  } cases[] = {{"d", "directory"}, {"fifo", "FIFO"}, {"link", "FIFO"}};
  for (const auto& c : cases) {
    const auto start = std::chrono::steady_clock::now();
    auto file = InputFile::open((dir / c.name).string(), 1 << 20);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << c.name;  // a FIFO did not block
    ASSERT_THAT(file, test::FailsWith(ErrorCode::Io)) << c.name;
    EXPECT_NE(file.error().message().find("is a " + c.kind + ", not a regular file"), std::string::npos)
        << file.error().message();
  }
}

TEST(InputFile, MissingFileIsNotFound) {
  test::TempDir dir;
  auto file = InputFile::open((dir / "nope").string(), 10);
  ASSERT_THAT(file, test::FailsWith(ErrorCode::NotFound));
}

}  // namespace
}  // namespace openflint
