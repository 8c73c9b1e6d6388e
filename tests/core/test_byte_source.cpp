// Tests for ByteSource: ranged reads from memory and from a file (holes of sparse files included), bounds refused.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "core/InputFile.h"
#include "core/MemorySource.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

TEST(MemorySource, ReadsRangesAndRefusesPastTheEnd) {
  const std::vector<std::uint8_t> bytes = test::random_bytes(1000, 3);
  const MemorySource owned{std::vector<std::uint8_t>(bytes)};
  const MemorySource viewed{std::span<const std::uint8_t>(bytes)};
  for (const ByteSource* source : {static_cast<const ByteSource*>(&owned), static_cast<const ByteSource*>(&viewed)}) {
    EXPECT_EQ(source->size(), 1000u);
    auto middle = source->read_range(100, 50);
    ASSERT_THAT(middle, test::IsOk());
    EXPECT_EQ(*middle, std::vector<std::uint8_t>(bytes.begin() + 100, bytes.begin() + 150));
    EXPECT_TRUE(source->read_range(1000, 0).has_value());
    auto past = source->read_range(990, 11);
    ASSERT_THAT(past, test::FailsWith(ErrorCode::InvalidImage));
    EXPECT_FALSE(source->read_range(~std::uint64_t{0}, 2).has_value()) << "offset + length wrapped";
  }
}

TEST(InputFileSource, ReadsDataAndHolesOfASparseFile) {
  test::TempDir dir;
  const std::string path = (dir / "sparse.bin").string();
  // data [0, 4096), a hole up to 8 MiB, data [8 MiB, 8 MiB + 4096)
  const std::vector<std::uint8_t> head = test::random_bytes(4096, 5);
  const std::vector<std::uint8_t> tail = test::random_bytes(4096, 6);
  constexpr std::uint64_t kTailAt = std::uint64_t{8} << 20;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pwrite(fd, head.data(), head.size(), 0), 4096);
  ASSERT_EQ(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(kTailAt)), 4096);
  ASSERT_EQ(::close(fd), 0);
  auto file = InputFile::open(path, kTailAt + 4096);
  ASSERT_THAT(file, test::IsOk());
  const ByteSource& source = *file;
  // Across data into the hole, inside the hole, across the hole into data.
  auto first = source.read_range(4000, 200);
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(std::equal(head.begin() + 4000, head.end(), first->begin()));
  EXPECT_TRUE(std::all_of(first->begin() + 96, first->end(), [](std::uint8_t b) { return b == 0; }));
  auto hole = source.read_range(1 << 20, 1 << 20);
  ASSERT_TRUE(hole.has_value());
  EXPECT_TRUE(std::all_of(hole->begin(), hole->end(), [](std::uint8_t b) { return b == 0; }));
  auto last = source.read_range(kTailAt - 100, 4196);
  ASSERT_TRUE(last.has_value());
  EXPECT_TRUE(std::all_of(last->begin(), last->begin() + 100, [](std::uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), last->begin() + 100));
  auto past = source.read_range(kTailAt, 4097);
  ASSERT_THAT(past, test::FailsWith(ErrorCode::InvalidImage));
}

TEST(InputFileSource, AFileThatShrankIsAnIoError) {
  test::TempDir dir;
  const std::string path = (dir / "f.bin").string();
  test::write_file(path, test::random_bytes(8192, 7));
  auto file = InputFile::open(path, 8192);
  ASSERT_TRUE(file.has_value());
  std::filesystem::resize_file(path, 100);
  std::vector<std::uint8_t> out(200);
  auto read = file->read(0, out);
  ASSERT_THAT(read, test::FailsWith(ErrorCode::Io));
  // Wholly past the new end: not taken for a hole of zeros.
  auto past = file->read(500, out);
  ASSERT_THAT(past, test::FailsWith(ErrorCode::Io));
}

}  // namespace
}  // namespace openflint
