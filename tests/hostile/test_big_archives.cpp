// Hostile inputs, class "big archive": MFA archives up to the 1 GiB limit are read from the file in pieces, never whole.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>

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

}  // namespace
}  // namespace openflint::test
