// Tests for the CRC16 (software and hardware flavours) and CRC32 helpers.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "image/Crc16.h"
#include "image/Crc32.h"

namespace openflint {
namespace {

std::vector<std::uint8_t> random_bytes(std::mt19937& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

std::vector<std::uint8_t> be_dwords(std::initializer_list<std::uint32_t> dwords) {
  std::vector<std::uint8_t> v;
  for (const std::uint32_t d : dwords) {
    v.resize(v.size() + 4);
    store_be32(&v[v.size() - 4], d);
  }
  return v;
}

TEST(Crc16, FastMatchesBitwiseForEveryLengthUpTo300) {
  std::mt19937 rng(12345);
  for (std::size_t len = 0; len <= 300; ++len)
    for (int round = 0; round < 8; ++round) {
      const auto data = random_bytes(rng, len);
      ASSERT_EQ(crc16(data), crc16_reference(data)) << "length " << len;
    }
}

TEST(Crc16, FastMatchesBitwiseOnMegabytes) {
  std::mt19937 rng(777);
  for (const std::size_t len : {std::size_t{1} << 20, (std::size_t{3} << 20) + 12}) {
    const auto data = random_bytes(rng, len);
    EXPECT_EQ(crc16(data), crc16_reference(data)) << "length " << len;
  }
}

TEST(Crc16, IncrementalEqualsOneShotAtAnySplit) {
  std::mt19937 rng(99);
  const auto data = random_bytes(rng, 257);
  for (std::size_t split = 0; split <= data.size(); split += 7) {
    Crc16 crc;
    crc.update(Bytes(data).first(split));
    crc.update(Bytes(data).subspan(split));
    EXPECT_EQ(crc.finish(), crc16(data)) << "split " << split;
  }
  Crc16 by_dword;
  const auto dw = be_dwords({0xDEADBEEF, 0x01020304});
  by_dword.update_dword(0xDEADBEEF);
  by_dword.update_dword(0x01020304);
  EXPECT_EQ(by_dword.finish(), crc16(dw));
}

TEST(Crc16, EmptyInputIsTheFlushedInitValue) {
  // 0xFFFF pushed through 16 zero bits, XOR 0xFFFF; the direct-form init is that register.
  EXPECT_EQ(crc16({}), crc16_reference({}));
  EXPECT_EQ(crc16({}), static_cast<std::uint16_t>(Crc16::kDirectInit ^ 0xFFFF));
}

// Vectors copied from a real Spectrum-1 (FS3) and Spectrum-2 (FS4) image, checked there
// against `mstflint verify`.
TEST(Crc16, RealTocHeaderAndEntryVectors) {
  // ITOC header (first 7 dwords), stored CRC 0x6a70 (both images).
  EXPECT_EQ(crc16(be_dwords({0x49544f43, 0x04081516, 0x2342cafa, 0xbacafe00, 1, 0, 0})), 0x6a70);
  // FS3 ITOC entry: FW_MAIN_CFG, 0xa80 bytes at relative 0x5000, section CRC 0x312b.
  EXPECT_EQ(crc16(be_dwords({0x12000a80, 0, 0, 0, 0, 0x80005000, 0x0000312b})), 0x6e4a);
  // FS4 ITOC entry: RESET_INFO, 0x100 bytes at 0x5000, section CRC 0x7895.
  EXPECT_EQ(crc16(be_dwords({0x20000100, 0, 0, 0, 0, 0x00005000, 0x00007895})), 0x38d3);
  // FS4 DTOC header, stored CRC 0x761d.
  EXPECT_EQ(crc16(be_dwords({0x44544f43, 0x04081516, 0x2342cafa, 0xbacafe00, 1, 0, 0})), 0x761d);
  // FS4 tools area (15 dwords), stored CRC 0x83dc.
  EXPECT_EQ(crc16(be_dwords({0, 0x00180100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})), 0x83dc);
}

TEST(Crc16Hw, TableMatchesKnownEntries) {
  EXPECT_EQ(crc16_hw_table_entry(0x00), 0x0000);
  EXPECT_EQ(crc16_hw_table_entry(0x01), 0x1BA1);
  EXPECT_EQ(crc16_hw_table_entry(0x80), 0xD008);
  EXPECT_EQ(crc16_hw_table_entry(0xFF), 0x0960);
}

TEST(Crc16Hw, RealHwPointerVectors) {
  // {pointer, 0x0000} → CRC, from the Spectrum-2 image's HW pointer table.
  const std::pair<std::uint32_t, std::uint16_t> cases[] = {
      {0x00000100, 0x75f8}, {0x00001000, 0xeb67}, {0x00004000, 0xbd3f}, {0x00000500, 0x8359},
      {0x00000000, 0x0000}};
  for (const auto& [ptr, expected] : cases) {
    const auto entry = be_dwords({ptr, 0});
    EXPECT_EQ(crc16_hw(Bytes(entry).first(6)), expected) << std::hex << ptr;
    EXPECT_EQ(crc16_hw_reference(Bytes(entry).first(6)), expected) << std::hex << ptr;
  }
}

TEST(Crc16Hw, TableMatchesBitwise) {
  std::mt19937 rng(4242);
  for (std::size_t len = 0; len <= 64; ++len) {
    const auto data = random_bytes(rng, len);
    EXPECT_EQ(crc16_hw(data), crc16_hw_reference(data)) << "length " << len;
  }
}

TEST(Crc32, MatchesKnownVectorAndIsIncremental) {
  const std::string text = "123456789";
  const Bytes bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  EXPECT_EQ(crc32(bytes), 0xCBF43926u);
  Crc32 crc;
  crc.update(bytes.first(4));
  crc.update(bytes.subspan(4));
  EXPECT_EQ(crc.value(), 0xCBF43926u);
  EXPECT_EQ(crc32({}), 0u);
}

}  // namespace
}  // namespace openflint
