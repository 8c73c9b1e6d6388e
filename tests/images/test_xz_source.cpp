// Tests for XzStream's source mode: a stream decoded from a range of a ByteSource, 64 KiB of input at a time.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/MemorySource.h"
#include "tests/images/MfaTestArchive.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::test {
namespace {

// Decodes the whole stream at [offset, offset + size) of `source` with 4 KiB reads.
Result<std::vector<std::uint8_t>> decode(const ByteSource& source, std::uint64_t offset, std::uint64_t size) {
  OF_ASSIGN(XzStream stream, XzStream::decoder(source, offset, size));
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> chunk(4096);
  while (!stream.finished()) {
    OF_ASSIGN(const std::size_t n, stream.read(chunk));
    out.insert(out.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

TEST(XzSource, DecodesAStreamLongerThanOneInputChunkInsideALargerBuffer) {
  // Random data barely compresses: the stream spans several 64 KiB input pieces.
  const auto input = random_bytes(300000, 21);
  const auto packed = xz_compress(input, 0).value();
  ASSERT_GT(packed.size(), 3 * XzStream::kInputChunk);
  // 100 bytes before the stream, 64 bytes of stream padding and one other byte after it.
  std::vector<std::uint8_t> framed(100 + packed.size() + 64 + 1, 0);
  std::fill_n(framed.begin(), 100, std::uint8_t{0xee});
  std::copy(packed.begin(), packed.end(), framed.begin() + 100);
  framed.back() = 0xee;
  const MemorySource source{std::span<const std::uint8_t>(framed)};
  auto decoded = decode(source, 100, packed.size());
  ASSERT_THAT(decoded, IsOk());
  EXPECT_EQ(*decoded, input);
  EXPECT_EQ(xz_uncompressed_size(source, 100, packed.size() + 64).value(), input.size());
  EXPECT_FALSE(xz_uncompressed_size(source, 100, packed.size() + 65).has_value()) << "a non-zero byte after padding";
  EXPECT_FALSE(XzStream::decoder(source, 100, framed.size()).has_value()) << "range past the source";
}

TEST(XzSource, TruncatedStreamsAreErrors) {
  const auto packed = xz_compress(random_bytes(150000, 22), 0).value();
  const MemorySource source{std::span<const std::uint8_t>(packed)};
  for (std::uint64_t len : {std::uint64_t{0}, std::uint64_t{12}, std::uint64_t{XzStream::kInputChunk},
                            std::uint64_t{XzStream::kInputChunk + 1}, std::uint64_t{packed.size() - 1}}) {
    auto decoded = decode(source, 0, len);
    ASSERT_FALSE(decoded.has_value()) << len;
    EXPECT_EQ(decoded.error().code(), ErrorCode::InvalidImage) << len << ": " << decoded.error().message();
    EXPECT_FALSE(xz_uncompressed_size(source, 0, len).has_value()) << len;
  }
}

}  // namespace
}  // namespace openflint::test
