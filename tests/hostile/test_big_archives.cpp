// Hostile inputs, class "big archive": MFA archives up to the 1 GiB limit are read from the file in pieces, never whole.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <fstream>

#include <lzma.h>

#include "image/MfaArchive.h"
#include "image/MfaFormat.h"
#include "image/MfaWriter.h"
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr const char* kPsid = "MT_1090120019";
// "Well under" the 256 MiB bound: a tool that held even a quarter of these archives in
// memory would be past this. Under ASan+UBSan the runtime alone takes ~100 MiB of RSS
// (measured: a refusal that reads nothing peaks at 99 MiB, these archives at 102-106 MiB), so
// there the bound is 64 MiB above that.
constexpr long kBigArchiveRssKiB = (kAddressSpaceLimited ? 128 : 164) * 1024;

// Writes `head`, then zeros up to offset `tail_at` (a hole: no disk used), then `tail`.
void write_sparse(const std::string& path, Bytes head, std::uint64_t tail_at, Bytes tail) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << path << ": " << std::strerror(errno);
  ASSERT_EQ(::pwrite(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(tail_at)), 0);
  ASSERT_EQ(::pwrite(fd, tail.data(), tail.size(), static_cast<off_t>(tail_at)), static_cast<ssize_t>(tail.size()));
  ASSERT_EQ(::close(fd), 0);
}

// An archive of exactly `total` bytes that is valid apart from the CRC when `good_crc` is
// false: one small FS2 board, its xz DATA stream (the last section) followed by xz stream
// padding — zero bytes, which the xz format allows after a stream — up to `total`, written as
// a hole. `total` - the small archive's size must be a multiple of 4 (padding comes in 4s).
void write_padded_archive(const std::string& path, std::uint64_t total, bool good_crc) {
  MfaWriter writer(MfaWriteOptions{.xz_preset = 0, .compress = true});
  ASSERT_TRUE(writer.add_board({.psid = kPsid, .part_number = "PN-BIG", .description = "padded to the limit",
                                .version = FwVersion{2, 42, 5000}, .image = hostile_fs2_image()}));
  auto built = writer.build();
  ASSERT_TRUE(built) << built.error().message();
  std::vector<std::uint8_t> bytes = std::move(built).value();
  const std::uint64_t padding = total - bytes.size();
  ASSERT_EQ(padding % 4, 0u) << "choose a total that leaves padding in multiples of 4";
  // Walk to DATA and check it is the last section, so the padding ends up inside it.
  std::uint64_t pos = mfa::kHeaderSize;
  while (bytes[pos] != mfa::kSectionData) pos += mfa::kSectionHeaderSize + ByteReader::load_be32(&bytes[pos + 4]);
  const std::uint32_t data_size = ByteReader::load_be32(&bytes[pos + 4]);
  ASSERT_EQ(pos + mfa::kSectionHeaderSize + data_size, bytes.size() - mfa::kCrcSize) << "DATA is not the last section";
  ASSERT_LE(data_size + padding, std::uint64_t{UINT32_MAX});
  store_be32(&bytes[pos + 4], static_cast<std::uint32_t>(data_size + padding));
  bytes.resize(bytes.size() - mfa::kCrcSize);  // the head, without its CRC
  uLong crc = crc32_z(crc32_z(0, nullptr, 0), bytes.data(), bytes.size());
  const std::vector<std::uint8_t> zeros(kMiB, 0);
  for (std::uint64_t left = padding; left > 0;) {
    const std::uint64_t n = std::min<std::uint64_t>(left, zeros.size());
    crc = crc32_z(crc, zeros.data(), static_cast<z_size_t>(n));
    left -= n;
  }
  std::uint8_t trailer[4];
  store_be32(trailer, static_cast<std::uint32_t>(crc) ^ (good_crc ? 0u : 0x1u));
  write_sparse(path, bytes, bytes.size() + padding, trailer);
}

// The small archive's size, so that totals can be chosen with padding in multiples of 4.
std::uint64_t unpadded_size() {
  MfaWriter writer(MfaWriteOptions{.xz_preset = 0, .compress = true});
  EXPECT_TRUE(writer.add_board({.psid = kPsid, .part_number = "PN-BIG", .description = "padded to the limit",
                                .version = FwVersion{2, 42, 5000}, .image = hostile_fs2_image()}));
  return writer.build().value().size();
}

// A total near `target` bytes whose padding is a multiple of 4.
std::uint64_t padded_total(std::uint64_t target) {
  const std::uint64_t base = unpadded_size();
  return base + ((target - base) & ~std::uint64_t{3});
}

void expect_small(const HostileRun& run) {
  if (run.rss_kib > 0) {
    EXPECT_LT(run.rss_kib, kBigArchiveRssKiB) << run.command << ": peak RSS";
  }
  std::cout << run.command << ": exit " << run.result.exit_code << ", " << run.seconds << " s, peak RSS "
            << run.rss_kib << " KiB\n";
}

TEST_F(HostileTest, LargeValidArchiveIsReadInPieces) {
  const std::uint64_t total = padded_total(768 * kMiB);
  const std::string mfa = path("big.mfa");
  write_padded_archive(mfa, total, true);
  ASSERT_EQ(std::filesystem::file_size(mfa), total);
  const HostileRun list = run_hostile("flint", {"-i", mfa, "archive", "list"});
  expect_orderly(list);
  EXPECT_EQ(list.result.exit_code, 0) << list.result.err;
  EXPECT_NE(list.result.out.find(kPsid), std::string::npos) << list.result.out;
  expect_small(list);
  // Extracting the board decodes DATA from the file too, and only up to the board's end.
  const HostileRun query = run_hostile("flint", {"-i", mfa, "--psid", kPsid, "q"});
  expect_orderly(query);
  EXPECT_EQ(query.result.exit_code, 0) << query.result.err;
  EXPECT_NE(query.result.out.find("2.42.5000"), std::string::npos) << query.result.out;
  expect_small(query);
}

TEST_F(HostileTest, LargeArchiveWithABadCrcIsRefused) {
  const std::string mfa = path("badcrc.mfa");
  write_padded_archive(mfa, padded_total(640 * kMiB), false);
  const HostileRun run = run_hostile("flint", {"-i", mfa, "archive", "list"});
  expect_refused(run, 3, "CRC32 mismatch");
  expect_small(run);
}

TEST_F(HostileTest, GigabyteOfGarbageIsRefused) {
  // Random bytes at both ends (where the magic, section headers and CRC are read), a hole between.
  const std::string mfa = path("garbage.mfa");
  write_sparse(mfa, random_bytes(kMiB, 17), MfaArchive::kMaxArchiveSize - kMiB, random_bytes(kMiB, 18));
  ASSERT_EQ(std::filesystem::file_size(mfa), MfaArchive::kMaxArchiveSize);
  const HostileRun run = run_hostile("flint", {"-i", mfa, "archive", "list"});
  expect_refused(run, 3, "not an MFA archive");
  EXPECT_EQ(run.result.err.find(mfa), run.result.err.rfind(mfa)) << "the file named twice: " << run.result.err;
  expect_small(run);
  // The same with a valid header and section layout (empty MAP and TOC, a DATA section
  // spanning the file): the CRC over the whole gigabyte is computed in pieces and refuses it.
  std::vector<std::uint8_t> head(64, 0);
  std::memcpy(head.data(), mfa::kMagic, sizeof mfa::kMagic);
  store_be32(&head[4], mfa::kVersion);
  head[16] = mfa::kSectionMap;
  head[24] = mfa::kSectionToc;
  head[32] = mfa::kSectionData;
  store_be32(&head[36], static_cast<std::uint32_t>(MfaArchive::kMaxArchiveSize - 40 - mfa::kCrcSize));
  const std::string framed = path("framed.mfa");
  write_sparse(framed, head, MfaArchive::kMaxArchiveSize - mfa::kCrcSize, random_bytes(4, 19));
  const HostileRun framed_run = run_hostile("flint", {"-i", framed, "archive", "list"});
  expect_refused(framed_run, 3, "CRC32 mismatch");
  expect_small(framed_run);
}

TEST_F(HostileTest, ArchiveOneByteOverTheLimitIsRefusedUnread) {
  const std::string mfa = path("over.mfa");
  std::vector<std::uint8_t> head(16, 0);
  std::memcpy(head.data(), mfa::kMagic, sizeof mfa::kMagic);
  write_sparse(mfa, head, MfaArchive::kMaxArchiveSize + 1 - 4, random_bytes(4, 20));
  ASSERT_EQ(std::filesystem::file_size(mfa), MfaArchive::kMaxArchiveSize + 1);
  const HostileRun run = run_hostile("flint", {"-i", mfa, "archive", "list"});
  expect_refused(run, 2, "-byte limit");
  expect_small(run);
}

// One .xz stream that unpacks to `zero_blocks` x kZeroBlock zero bytes, then `tail`: the
// zero block is encoded once and repeated (the index lists each copy), so gigabytes of
// zeros cost a few KiB and no time to build.
constexpr std::uint64_t kZeroBlock = 64 * kMiB;
std::vector<std::uint8_t> xz_zeros_then(std::uint64_t zero_blocks, Bytes tail) {
  std::vector<std::uint8_t> out(LZMA_STREAM_HEADER_SIZE);
  lzma_stream_flags flags{};
  flags.check = LZMA_CHECK_CRC32;
  EXPECT_EQ(lzma_stream_header_encode(&flags, out.data()), LZMA_OK);
  lzma_index* index = lzma_index_init(nullptr);
  lzma_options_lzma options{};
  EXPECT_FALSE(lzma_lzma_preset(&options, 0));
  lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  auto add_block = [&](Bytes plain) {
    lzma_block block{};
    block.check = LZMA_CHECK_CRC32;
    block.filters = filters;
    std::vector<std::uint8_t> encoded(lzma_block_buffer_bound(plain.size()));
    std::size_t n = 0;
    EXPECT_EQ(lzma_block_buffer_encode(&block, nullptr, plain.data(), plain.size(), encoded.data(), &n, encoded.size()), LZMA_OK);
    encoded.resize(n);
    return std::make_pair(encoded, lzma_block_unpadded_size(&block));
  };
  const std::vector<std::uint8_t> zeros(kZeroBlock, 0);
  const auto [zero_block, zero_unpadded] = add_block(zeros);
  for (std::uint64_t i = 0; i < zero_blocks; ++i) {
    out.insert(out.end(), zero_block.begin(), zero_block.end());
    EXPECT_EQ(lzma_index_append(index, nullptr, zero_unpadded, kZeroBlock), LZMA_OK);
  }
  const auto [tail_block, tail_unpadded] = add_block(tail);
  out.insert(out.end(), tail_block.begin(), tail_block.end());
  EXPECT_EQ(lzma_index_append(index, nullptr, tail_unpadded, tail.size()), LZMA_OK);
  std::vector<std::uint8_t> encoded_index(lzma_index_size(index));
  std::size_t n = 0;
  EXPECT_EQ(lzma_index_buffer_encode(index, encoded_index.data(), &n, encoded_index.size()), LZMA_OK);
  out.insert(out.end(), encoded_index.begin(), encoded_index.end());
  flags.backward_size = lzma_index_size(index);
  lzma_index_end(index, nullptr);
  const std::size_t footer_at = out.size();
  out.resize(footer_at + LZMA_STREAM_HEADER_SIZE);
  EXPECT_EQ(lzma_stream_footer_encode(&flags, &out[footer_at]), LZMA_OK);
  return out;
}

// A valid archive of one board per `entries` item (PSIDs kPsid, MT_ZEROS_1, ...), whose DATA
// is `zero_blocks` x kZeroBlock zeros then one copy of hostile_fs2_image(), with board i's TOC
// entry patched to {offset, size} = entries[i]: a few KiB on disk. MAP and TOC are stored
// plain so the entries can be patched. Written to `file`.
void write_zeros_archive(const std::string& file, std::uint64_t zero_blocks,
                         const std::vector<std::pair<std::uint64_t, std::uint32_t>>& entries) {
  const std::vector<std::uint8_t> image = hostile_fs2_image();
  MfaWriter writer(MfaWriteOptions{.xz_preset = 0, .compress = false});
  for (std::size_t i = 0; i < entries.size(); ++i)
    ASSERT_TRUE(writer.add_board({.psid = i == 0 ? std::string(kPsid) : "MT_ZEROS_" + std::to_string(i),
                                  .part_number = "PN-ZEROS", .description = "behind zeros",
                                  .version = FwVersion{2, 42, 5000}, .image = image}));
  const std::vector<std::uint8_t> plain = writer.build().value();
  std::vector<std::uint8_t> bytes(plain.begin(), plain.begin() + mfa::kHeaderSize);
  for (std::uint64_t pos = mfa::kHeaderSize; pos < plain.size() - mfa::kCrcSize;) {
    const std::uint8_t type = plain[pos];
    const std::uint32_t size = ByteReader::load_be32(&plain[pos + 4]);
    std::vector<std::uint8_t> payload(plain.begin() + pos + mfa::kSectionHeaderSize,
                                      plain.begin() + pos + mfa::kSectionHeaderSize + size);
    // TOC entries in board order: offset lsb at 0, size at 4, offset msb at 20, metadata size at 22.
    for (std::size_t i = 0, at = 0; type == mfa::kSectionToc && i < entries.size(); ++i) {
      const auto [offset, length] = entries[i];
      store_be32(&payload[at], static_cast<std::uint32_t>(offset));
      store_be32(&payload[at + 4], length);
      payload[at + 20] = static_cast<std::uint8_t>(offset >> 40);
      payload[at + 21] = static_cast<std::uint8_t>(offset >> 32);
      at += mfa::kTocEntryHeaderSize + ((std::size_t{payload[at + 22]} << 8) | payload[at + 23]);
    }
    if (type == mfa::kSectionData) payload = xz_zeros_then(zero_blocks, image);
    std::uint8_t header[mfa::kSectionHeaderSize] = {type, 0, 0, type == mfa::kSectionData ? mfa::kSectionFlagXz : std::uint8_t{0}};
    store_be32(&header[4], static_cast<std::uint32_t>(payload.size()));
    bytes.insert(bytes.end(), header, header + sizeof header);
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    pos += mfa::kSectionHeaderSize + size;
  }
  std::uint8_t trailer[4];
  store_be32(trailer, static_cast<std::uint32_t>(crc32_z(0, bytes.data(), bytes.size())));
  bytes.insert(bytes.end(), trailer, trailer + 4);
  ASSERT_LT(bytes.size(), 4 * kMiB) << "not a bomb";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// list, query and extract of `psid` in `mfa` are refused (exit 3, naming DATA) in bounded time.
void expect_data_refused(const std::string& mfa, const std::string& psid, const std::string& out) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"-i", mfa, "archive", "list"},
                                               {"-i", mfa, "--psid", psid, "q"},
                                               {"-i", mfa, "archive", "extract", "--psid", psid, "-o", out}}) {
    const HostileRun run = run_hostile("flint", args);
    expect_refused(run, 3, "DATA");
    expect_small(run);
  }
}

TEST_F(HostileTest, BoardBehindGigabytesOfZerosIsRefusedUndecoded) {
  // 4 GiB of zeros that no entry owns before the board's image, its TOC entry pointing past
  // them: extracting the board would decode 4 GiB.
  const std::uint64_t blocks = 64;
  const std::uint64_t image_size = hostile_fs2_image().size();
  write_zeros_archive(path("zeros.mfa"), blocks, {{blocks * kZeroBlock, static_cast<std::uint32_t>(image_size)}});
  expect_data_refused(path("zeros.mfa"), kPsid, path("zeros.bin"));
}

TEST_F(HostileTest, BoardBehindAnEntryOfGigabytesOfZerosIsRefusedUndecoded) {
  // The zeros owned by another board's entry (3.875 GiB, under the 32-bit size limit): the
  // entries cover DATA, but the unpacked DATA is past MfaArchive::kMaxDataUnpackedSize.
  const std::uint64_t blocks = 62;
  const std::uint64_t image_size = hostile_fs2_image().size();
  write_zeros_archive(path("owned.mfa"), blocks,
                      {{blocks * kZeroBlock, static_cast<std::uint32_t>(image_size)},
                       {0, static_cast<std::uint32_t>(blocks * kZeroBlock)}});
  expect_data_refused(path("owned.mfa"), kPsid, path("owned.bin"));
}

}  // namespace
}  // namespace openflint::test
