// Hostile inputs, class "compression bomb": a stored INI or an archive entry that inflates past its bound is refused as it grows.
#include <zlib.h>

#include "devices/FlashChip.h"
#include "image/Fs2Writer.h"
#include "image/ImageInfo.h"
#include "image/MfaFormat.h"
#include "image/MfaWriter.h"
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

// An FS2 image whose FW_CONF inflates to `ini_size` bytes (a few KiB stored: zlib ~1000:1).
std::vector<std::uint8_t> fs2_with_ini(std::size_t ini_size) {
  Fs2ImageSpec s;
  s.fw_version = FwVersion{2, 42, 5000};
  s.release_date = ReleaseDate{2019, 9, 23};
  s.psid = "MT_1090120019";
  s.supported_hw_ids = {0x1f5};
  s.sections.push_back({gph::kDdr, random_bytes(4096, 3), 0});
  s.ini = "[PS_INFO]\nName = bomb\n" + std::string(ini_size, ';');
  auto image = write_fs2_image(s);
  if (!image) ADD_FAILURE() << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

TEST_F(HostileTest, IniInflatingPastItsBoundIsRefused) {
  // Sizes around the bound and far past it; the image itself stays small.
  for (std::size_t size : {kMaxInflatedConfigBytes * 2, std::size_t{64} << 20}) {
    const std::vector<std::uint8_t> image = fs2_with_ini(size);
    ASSERT_LT(image.size(), size / 100) << "not a bomb: the INI did not compress";
    const std::string img = write("bomb.bin", image);
    SCOPED_TRACE("INI of " + std::to_string(size) + " bytes");
    expect_refused(run_hostile("flint", {"-i", img, "dc"}), 3, "-byte INI limit");
  }
  // Below the bound the same construction is an ordinary image.
  const std::string ok = write("ok.bin", fs2_with_ini(1024));
  EXPECT_EQ(run_hostile("flint", {"-i", ok, "dc"}).result.exit_code, 0);
}

TEST_F(HostileTest, ArchiveEntryLargerThanAnyFlashIsRefusedBeforeInflating) {
  MfaWriter writer(MfaWriteOptions{.xz_preset = 0, .compress = true});
  // One board whose entry holds more than the largest flash: zeros, a few KiB once compressed.
  std::vector<std::uint8_t> huge = hostile_fs2_image();
  huge.resize(static_cast<std::size_t>(largest_flash_size()) + 4096, 0);
  ASSERT_TRUE(writer.add_board({.psid = "MT_BOMB", .part_number = "PN", .description = "bomb",
                                .version = FwVersion{2, 42, 5000}, .image = std::move(huge)}));
  huge.clear();
  ASSERT_TRUE(writer.write_file(path("bomb.mfa")));
  EXPECT_LT(std::filesystem::file_size(path("bomb.mfa")), std::uintmax_t{1} << 20) << "not a bomb";
  expect_refused(run_hostile("flint", {"-i", path("bomb.mfa"), "--psid", "MT_BOMB", "q"}), 3, "larger than any flash");
  // Extracting it to a file is refused by the same bound, before the output exists.
  expect_refused(run_hostile("flint", {"-i", path("bomb.mfa"), "archive", "extract", "--psid", "MT_BOMB", "-o", path("out.bin")}),
                 3, "larger than any flash");
  for (const auto& e : std::filesystem::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().filename().string().find("out.bin"), std::string::npos) << "left behind: " << e.path();
}

// Reads an xz variable-length integer at `pos` (xz file format 1.0.4, 1.2), advancing `pos`.
std::uint64_t xz_vli(const std::vector<std::uint8_t>& b, std::size_t& pos) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t byte = b.at(pos++);
    v |= std::uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) return v;
  }
}

TEST_F(HostileTest, ArchiveWhoseXzDictionaryPassesTheMemoryBoundIsRefused) {
  MfaWriter writer(MfaWriteOptions{.xz_preset = 0, .compress = true});
  ASSERT_TRUE(writer.add_board({.psid = "MT_DICT", .part_number = "PN", .description = "big dictionary",
                                .version = FwVersion{2, 42, 5000}, .image = hostile_fs2_image()}));
  std::vector<std::uint8_t> mfa = writer.build().value();
  // DATA's first block header: LZMA2's one property byte is the dictionary size (xz format
  // 5.3.1); 31 = 192 MiB, more than the tools may use but under liblzma's own sanity limits.
  std::size_t pos = mfa::kHeaderSize;
  while (mfa[pos] != mfa::kSectionData) pos += mfa::kSectionHeaderSize + ByteReader::load_be32(&mfa[pos + 4]);
  const std::size_t block = pos + mfa::kSectionHeaderSize + 12;  // past the 12-byte stream header
  const std::size_t header_size = (std::size_t{mfa[block]} + 1) * 4;
  const std::uint8_t flags = mfa[block + 1];
  std::size_t at = block + 2;
  if (flags & 0x40) (void)xz_vli(mfa, at);  // compressed size
  if (flags & 0x80) (void)xz_vli(mfa, at);  // uncompressed size
  ASSERT_EQ(xz_vli(mfa, at), 0x21u) << "not LZMA2";
  ASSERT_EQ(xz_vli(mfa, at), 1u) << "LZMA2 has one property byte";
  mfa[at] = 31;
  const std::size_t crc_at = block + header_size - 4;
  const auto header_crc = static_cast<std::uint32_t>(crc32_z(0, &mfa[block], header_size - 4));
  for (int i = 0; i < 4; ++i) mfa[crc_at + i] = static_cast<std::uint8_t>(header_crc >> (8 * i));  // little-endian
  const std::size_t trailer = mfa.size() - mfa::kCrcSize;
  store_be32(&mfa[trailer], static_cast<std::uint32_t>(crc32_z(0, mfa.data(), trailer)));
  const std::string path_mfa = write("dict.mfa", mfa);
  expect_refused(run_hostile("flint", {"-i", path_mfa, "--psid", "MT_DICT", "q"}), 3, "MiB to decode");
}

}  // namespace
}  // namespace openflint::test
