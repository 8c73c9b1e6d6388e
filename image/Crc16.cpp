// Crc16: table-driven software and hardware CRC16 plus their bitwise reference definitions.
#include "image/Crc16.h"

#include <array>

namespace openflint {
namespace {

constexpr std::uint16_t kPoly = 0x100B;
constexpr std::uint16_t kPolyReflected = 0xD008;

// One augmented-register step: shift `bit` in at the bottom, reduce by the top bit shifted out.
constexpr std::uint16_t augmented_step(std::uint16_t reg, unsigned bit) {
  const bool top = (reg & 0x8000) != 0;
  reg = static_cast<std::uint16_t>((reg << 1) | (bit & 1));
  return top ? static_cast<std::uint16_t>(reg ^ kPoly) : reg;
}

constexpr std::uint16_t direct_init() {
  std::uint16_t reg = 0xFFFF;
  for (int i = 0; i < 16; ++i) reg = augmented_step(reg, 0);
  return reg;
}

using Table = std::array<std::uint16_t, 256>;

// tables[k][v]: direct-form register after byte v followed by k zero bytes, from register 0.
constexpr std::array<Table, 8> make_sw_tables() {
  std::array<Table, 8> t{};
  for (unsigned v = 0; v < 256; ++v) {
    auto r = static_cast<std::uint16_t>(v << 8);
    for (int i = 0; i < 8; ++i)
      r = (r & 0x8000) ? static_cast<std::uint16_t>((r << 1) ^ kPoly)
                       : static_cast<std::uint16_t>(r << 1);
    t[0][v] = r;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (unsigned v = 0; v < 256; ++v) {
      const std::uint16_t prev = t[k - 1][v];
      t[k][v] = static_cast<std::uint16_t>((prev << 8) ^ t[0][prev >> 8]);
    }
  return t;
}

constexpr Table make_hw_table() {
  Table t{};
  for (unsigned v = 0; v < 256; ++v) {
    auto r = static_cast<std::uint16_t>(v);
    for (int i = 0; i < 8; ++i)
      r = (r & 1) ? static_cast<std::uint16_t>((r >> 1) ^ kPolyReflected)
                  : static_cast<std::uint16_t>(r >> 1);
    t[v] = r;
  }
  return t;
}

constexpr std::array<Table, 8> kSw = make_sw_tables();
constexpr Table kHw = make_hw_table();

static_assert(kHw[0x80] == 0xD008, "reflected table must match the documented anchor");

std::uint16_t sw_update(std::uint16_t crc, const std::uint8_t* p, std::size_t n) {
  while (n >= 8) {
    crc = static_cast<std::uint16_t>(
        kSw[7][p[0] ^ (crc >> 8)] ^ kSw[6][p[1] ^ (crc & 0xFF)] ^ kSw[5][p[2]] ^ kSw[4][p[3]] ^
        kSw[3][p[4]] ^ kSw[2][p[5]] ^ kSw[1][p[6]] ^ kSw[0][p[7]]);
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = static_cast<std::uint16_t>((crc << 8) ^ kSw[0][(crc >> 8) ^ *p++]);
  return crc;
}

std::uint16_t swap_bytes(std::uint16_t v) { return static_cast<std::uint16_t>((v << 8) | (v >> 8)); }

std::uint8_t hw_input_byte(Bytes data, std::size_t i) {
  return i < 2 ? static_cast<std::uint8_t>(~data[i]) : data[i];
}

}  // namespace

const std::uint16_t Crc16::kDirectInit = direct_init();

void Crc16::update(Bytes data) { reg_ = sw_update(reg_, data.data(), data.size()); }

void Crc16::update_dword(std::uint32_t dword) {
  const std::uint8_t be[4] = {static_cast<std::uint8_t>(dword >> 24),
                              static_cast<std::uint8_t>(dword >> 16),
                              static_cast<std::uint8_t>(dword >> 8), static_cast<std::uint8_t>(dword)};
  reg_ = sw_update(reg_, be, 4);
}

std::uint16_t crc16(Bytes data) {
  Crc16 crc;
  crc.update(data);
  return crc.finish();
}

std::uint16_t crc16_reference(Bytes data) {
  std::uint16_t reg = 0xFFFF;
  for (const std::uint8_t byte : data)
    for (int bit = 7; bit >= 0; --bit) reg = augmented_step(reg, byte >> bit);
  for (int i = 0; i < 16; ++i) reg = augmented_step(reg, 0);
  return static_cast<std::uint16_t>(reg ^ 0xFFFF);
}

std::uint16_t crc16_hw(Bytes data) {
  std::uint16_t crc = 0xFFFF;
  for (std::size_t i = 0; i < data.size(); ++i)
    crc = static_cast<std::uint16_t>((crc >> 8) ^ kHw[(crc ^ hw_input_byte(data, i)) & 0xFF]);
  return swap_bytes(crc);
}

std::uint16_t crc16_hw_reference(Bytes data) {
  std::uint16_t crc = 0xFFFF;
  for (std::size_t i = 0; i < data.size(); ++i) {
    crc ^= hw_input_byte(data, i);
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc & 1) ? static_cast<std::uint16_t>((crc >> 1) ^ kPolyReflected)
                      : static_cast<std::uint16_t>(crc >> 1);
  }
  return swap_bytes(crc);
}

std::uint16_t crc16_hw_table_entry(std::uint8_t index) { return kHw[index]; }

}  // namespace openflint
