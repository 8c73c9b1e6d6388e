// Tests: malformed MFA archives — CRC, truncation, corrupt xz, absurd sizes and offsets.
#include <cstdio>
#include <filesystem>

#include <gtest/gtest.h>

#include "tests/images/MfaTestArchive.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> small_archive() {
  return build_archive({sample_board("MT_0000000001", 3000, 1), sample_board("MT_0000000002", 2000, 2)});
}

// Opens and extracts every board in one pass; returns the first error (or none).
Result<void> open_and_extract_all(std::vector<std::uint8_t> bytes) {
  OF_ASSIGN(MfaArchive archive, MfaArchive::from_bytes(std::move(bytes)));
  std::vector<const MfaBoard*> boards;
  std::vector<MfaArchive::Sink> sinks;
  for (const auto& board : archive.boards()) {
    boards.push_back(&board);
    sinks.push_back([](Bytes) -> Result<void> { return {}; });
  }
  return archive.extract_many(boards, sinks);
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

TEST(MfaMalformed, CrcMismatchReportsBothValues) {
  auto bytes = small_archive();
  const std::uint32_t stored = ByteReader::load_be32(bytes.data() + bytes.size() - 4);
  bytes[find_section(bytes, mfa::kSectionData).payload() + 20] ^= 0x40;
  const std::uint32_t computed =
      static_cast<std::uint32_t>(crc32_z(crc32_z(0, nullptr, 0), bytes.data(), bytes.size() - 4));
  auto archive = MfaArchive::from_bytes(bytes);
  ASSERT_THAT(archive, FailsWith(ErrorCode::Mismatch));
  EXPECT_NE(archive.error().message().find(hex(stored)), std::string::npos) << archive.error().message();
  EXPECT_NE(archive.error().message().find(hex(computed)), std::string::npos) << archive.error().message();
  // The trailer itself damaged.
  auto trailer = small_archive();
  trailer.back() ^= 1;
  auto bad = MfaArchive::from_bytes(trailer);
  ASSERT_THAT(bad, FailsWith(ErrorCode::Mismatch));
}

TEST(MfaMalformed, EveryTruncationIsAnError) {
  const auto bytes = small_archive();
  ASSERT_TRUE(MfaArchive::from_bytes(bytes).has_value());
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    auto archive = MfaArchive::from_bytes({bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(len)});
    EXPECT_FALSE(archive.has_value()) << "prefix of " << len << " bytes opened";
    if (!archive.has_value()) {
      EXPECT_FALSE(archive.error().message().empty());
    }
  }
}

TEST(MfaMalformed, BadMagicAndVersion) {
  auto magic = small_archive();
  magic[0] = 'X';
  fix_crc(magic);
  auto a = MfaArchive::from_bytes(magic);
  ASSERT_THAT(a, FailsWith(ErrorCode::InvalidImage));
  auto version = small_archive();
  version[7] = 2;
  fix_crc(version);
  auto b = MfaArchive::from_bytes(version);
  ASSERT_THAT(b, FailsWith(ErrorCode::NotSupported));
}

TEST(MfaMalformed, AbsurdSectionSizeIsAnError) {
  auto bytes = small_archive();
  store_be32(bytes.data() + find_section(bytes, mfa::kSectionToc).header + 4, 0xffffffffu);
  fix_crc(bytes);
  auto archive = MfaArchive::from_bytes(bytes);
  ASSERT_THAT(archive, FailsWith(ErrorCode::InvalidImage));
  EXPECT_NE(archive.error().message().find("TOC"), std::string::npos) << archive.error().message();
}

TEST(MfaMalformed, EveryCorruptedDataByteIsAnError) {
  // Each byte of the DATA xz stream changed in turn (CRC fixed so open() gets past it):
  // opening or extracting everything must fail, never crash or succeed.
  const auto bytes = small_archive();
  const SectionAt data = find_section(bytes, mfa::kSectionData);
  for (std::size_t i = 0; i < data.size; ++i) {
    auto copy = bytes;
    copy[data.payload() + i] ^= 0x5a;
    fix_crc(copy);
    EXPECT_FALSE(open_and_extract_all(std::move(copy)).has_value()) << "DATA byte " << i;
  }
}

TEST(MfaMalformed, CorruptedXzBlockFailsExtractionAndLeavesNoFile) {
  auto bytes = small_archive();
  const SectionAt data = find_section(bytes, mfa::kSectionData);
  bytes[data.payload() + data.size / 2] ^= 0xff;  // inside the compressed block
  fix_crc(bytes);
  auto archive = MfaArchive::from_bytes(bytes);
  ASSERT_TRUE(archive.has_value()) << "the xz index is intact: " << archive.error().message();
  TempDir dir;
  auto done = archive->extract_to_file(archive->boards()[1], (dir / "b.bin").string());
  ASSERT_THAT(done, FailsWith(ErrorCode::InvalidImage));
  EXPECT_TRUE(fs::is_empty(dir.path())) << "temp file left behind";
}

TEST(MfaMalformed, TruncatedXzDataWithValidCrcIsAnError) {
  const auto bytes = small_archive();
  const auto data = find_section(bytes, mfa::kSectionData);
  const std::vector<std::uint8_t> raw(bytes.begin() + static_cast<std::ptrdiff_t>(data.payload()),
                                      bytes.begin() + static_cast<std::ptrdiff_t>(data.payload() + data.size));
  for (std::size_t keep : {std::size_t{0}, std::size_t{12}, raw.size() / 2, raw.size() - 1}) {
    auto cut = replace_section(bytes, mfa::kSectionData, {raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(keep)}, false);
    auto result = open_and_extract_all(cut);
    ASSERT_THAT(result, FailsWith(ErrorCode::InvalidImage)) << "DATA cut to " << keep;
  }
}

TEST(MfaMalformed, ImageRangeBeyondDataIsRefusedAtOpen) {
  const auto bytes = small_archive();
  auto toc = section_payload(bytes, mfa::kSectionToc);
  // Board 2: offset msb set (2^32 + ...), then a huge size on board 1.
  auto far = toc;
  store_be16(far.data() + mfa::kTocEntryHeaderSize + 20, 1);
  auto a = MfaArchive::from_bytes(replace_section(bytes, mfa::kSectionToc, far));
  ASSERT_THAT(a, FailsWith(ErrorCode::InvalidImage));
  EXPECT_NE(a.error().message().find("past the end of DATA"), std::string::npos) << a.error().message();
  auto big = toc;
  store_be32(big.data() + 4, 0xfffffff0u);
  auto b = MfaArchive::from_bytes(replace_section(bytes, mfa::kSectionToc, big));
  ASSERT_THAT(b, FailsWith(ErrorCode::InvalidImage));
}

TEST(MfaMalformed, MapPointingOutsideTocOrPastItselfIsAnError) {
  const auto bytes = small_archive();
  const auto map = section_payload(bytes, mfa::kSectionMap);
  // toc_offset of board 1's image (after psid, header, metadata).
  const std::uint16_t md_size = static_cast<std::uint16_t>((map[34] << 8) | map[35]);
  auto bad_toc = map;
  store_be32(bad_toc.data() + mfa::kMapEntryHeaderSize + md_size, 0x7fffffff);
  auto a = MfaArchive::from_bytes(replace_section(bytes, mfa::kSectionMap, bad_toc));
  ASSERT_FALSE(a.has_value());
  EXPECT_NE(a.error().message().find("TOC entry"), std::string::npos) << a.error().message();
  auto bad_md = map;
  store_be16(bad_md.data() + 34, 0xffff);
  auto b = MfaArchive::from_bytes(replace_section(bytes, mfa::kSectionMap, bad_md));
  ASSERT_FALSE(b.has_value());
  EXPECT_NE(b.error().message().find("MAP entry 0"), std::string::npos) << b.error().message();
  auto many_images = map;
  many_images[32] = 200;
  EXPECT_FALSE(MfaArchive::from_bytes(replace_section(bytes, mfa::kSectionMap, many_images)).has_value());
  // MAP payload that is not xz although flagged so.
  auto not_xz = replace_section(bytes, mfa::kSectionMap, map, false);
  EXPECT_FALSE(MfaArchive::from_bytes(not_xz).has_value());
}

TEST(XzStream, RoundTripAndSizeFromIndex) {
  const auto input = sample_image(200000, 9);
  auto packed = xz_compress(input);
  ASSERT_TRUE(packed.has_value());
  EXPECT_LT(packed->size(), input.size());
  EXPECT_EQ(xz_uncompressed_size(*packed).value(), input.size());
  EXPECT_EQ(xz_decompress(*packed, input.size()).value(), input);
  EXPECT_FALSE(xz_decompress(*packed, input.size() - 1).has_value()) << "max_output ignored";
  EXPECT_FALSE(xz_compress(input, 10).has_value());
}

TEST(XzStream, EveryTruncationIsAnError) {
  const auto packed = xz_compress(sample_image(5000, 3)).value();
  for (std::size_t len = 0; len < packed.size(); ++len) {
    const Bytes prefix = Bytes(packed).first(len);
    EXPECT_FALSE(xz_decompress(prefix, 1 << 20).has_value()) << len;
    EXPECT_FALSE(xz_uncompressed_size(prefix).has_value()) << len;
  }
}

}  // namespace
}  // namespace openflint::test
