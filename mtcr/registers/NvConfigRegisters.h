// NvConfigRegisters: the NV configuration access registers (MNVDA & co.), the item header and item type dword.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "devices/NvConfigInfo.h"

namespace openflint::nv_reg {

// docs/nvconfig.md §2.
inline constexpr std::uint16_t kMnvda = 0x9024;  // GET/SET one item
inline constexpr std::uint16_t kMnvdi = 0x9025;  // SET: invalidate one item
inline constexpr std::uint16_t kMnvqc = 0x9030;  // GET: item supported for read/write, its version
inline constexpr std::uint16_t kMnvia = 0x9033;  // SET: invalidate all items (defaults at next boot)
inline constexpr std::uint16_t kMnvgc = 0x9034;  // GET: can "default" / "current" be read

inline constexpr std::size_t kHeaderBytes = 12;  // item header; MNVDA data follows
inline constexpr std::size_t kMaxItemBytes = 256;
inline constexpr std::size_t kMnvqcBytes = 8;
inline constexpr std::size_t kMnviaBytes = 8;
inline constexpr std::size_t kMnvgcBytes = 16;
inline constexpr std::uint8_t kWriterMstconfig = 9;  // writer_id mstconfig sends (and so do we)

// Which values an MNVDA GET returns: the stored ones (applied at the next boot), the ones in
// effect since the last boot, or the factory defaults (header [23:22]).
enum class NvReadMode : std::uint8_t { Next = 0, Current = 1, Default = 2 };

// The item header's dword 0 (length [8:0] bytes, writer_id [20:16], read_current [22],
// default [23], over_en [25]) and dword 1 (the type).
struct NvItemHeader {
  std::uint16_t length = 0;
  std::uint8_t writer_id = 0;
  NvReadMode mode = NvReadMode::Next;
  bool over_en = true;
  std::uint32_t type = 0;
};

[[nodiscard]] inline std::uint32_t get_be32(std::span<const std::uint8_t> b, std::size_t off) {
  return std::uint32_t{b[off]} << 24 | std::uint32_t{b[off + 1]} << 16 | std::uint32_t{b[off + 2]} << 8 | b[off + 3];
}
inline void put_be32(std::span<std::uint8_t> b, std::size_t off, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[off + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

inline void put_header(std::span<std::uint8_t> reg, const NvItemHeader& h) {
  const std::uint32_t mode = static_cast<std::uint32_t>(h.mode);
  put_be32(reg, 0, (h.length & 0x1ffu) | std::uint32_t{h.writer_id & 0x1fu} << 16 | (mode & 1u) << 22 |
                       (mode >> 1 & 1u) << 23 | std::uint32_t{h.over_en} << 25);
  put_be32(reg, 4, h.type);
  put_be32(reg, 8, 0);
}

[[nodiscard]] inline NvItemHeader get_header(std::span<const std::uint8_t> reg) {
  const std::uint32_t d0 = get_be32(reg, 0);
  NvItemHeader h;
  h.length = static_cast<std::uint16_t>(d0 & 0x1ff);
  h.writer_id = static_cast<std::uint8_t>(d0 >> 16 & 0x1f);
  h.mode = (d0 >> 23 & 1) != 0 ? NvReadMode::Default : (d0 >> 22 & 1) != 0 ? NvReadMode::Current : NvReadMode::Next;
  h.over_en = (d0 >> 25 & 1) != 0;
  h.type = get_be32(reg, 4);
  return h;
}

// The item type dword: class [31:24]; per-port items put the port in [23:16] and the index in
// [15:0]; the others (with host/function 0) the index in the low bits.
[[nodiscard]] constexpr std::uint32_t item_type(NvItemClass cls, std::uint32_t index, std::uint8_t port = 0) {
  const std::uint32_t c = static_cast<std::uint32_t>(cls) << 24;
  if (cls == NvItemClass::PhysicalPort) return c | std::uint32_t{port} << 16 | (index & 0xffff);
  return c | (index & 0xffffff);
}

// 4th generation (ConnectX-3, docs/nvconfig.md §4): MNVA (the same id as MNVDA) with an 8-byte
// header, MNVI (one item), MNVIA at 0x9029 (all items; 0x9033 is the 5th-generation one).
inline constexpr std::uint16_t kMnva = 0x9024;
inline constexpr std::uint16_t kMnvi = 0x9025;
inline constexpr std::uint16_t kGen4Mnvia = 0x9029;
inline constexpr std::size_t kGen4HeaderBytes = 8;
inline constexpr std::size_t kGen4MaxItemBytes = 128;
inline constexpr std::size_t kGen4MnviaBytes = 8;

// dword 0: type [15:0], length in dwords [29:18]; dword 1: type_mod [23:16] (the port of a
// per-port item, else 0), shadow [24], pad count [26:25], version [31:28].
struct Gen4ItemHeader {
  std::uint16_t type = 0;
  std::uint16_t length_dwords = 0;
  std::uint8_t type_mod = 0;
  std::uint8_t version = 0;
};

inline void put_gen4_header(std::span<std::uint8_t> reg, const Gen4ItemHeader& h) {
  put_be32(reg, 0, h.type | std::uint32_t{h.length_dwords & 0xfffu} << 18);
  put_be32(reg, 4, std::uint32_t{h.type_mod} << 16 | std::uint32_t{h.version & 0xfu} << 28);
}

[[nodiscard]] inline Gen4ItemHeader get_gen4_header(std::span<const std::uint8_t> reg) {
  const std::uint32_t d0 = get_be32(reg, 0);
  const std::uint32_t d1 = get_be32(reg, 4);
  return {.type = static_cast<std::uint16_t>(d0 & 0xffff),
          .length_dwords = static_cast<std::uint16_t>(d0 >> 18 & 0xfff),
          .type_mod = static_cast<std::uint8_t>(d1 >> 16 & 0xff),
          .version = static_cast<std::uint8_t>(d1 >> 28 & 0xf)};
}

// A field of item data (NvField: big-endian dword at field.byte, bits [lsb+width-1 : lsb]).
[[nodiscard]] inline std::uint32_t field_mask(const NvField& f) {
  return f.width >= 32 ? 0xffffffffu : (1u << f.width) - 1;
}
[[nodiscard]] inline std::uint32_t get_field(std::span<const std::uint8_t> data, const NvField& f) {
  if (f.byte + 4u > data.size()) return 0;
  return get_be32(data, f.byte) >> f.lsb & field_mask(f);
}
inline void put_field(std::span<std::uint8_t> data, const NvField& f, std::uint32_t value) {
  if (f.byte + 4u > data.size()) return;
  const std::uint32_t mask = field_mask(f) << f.lsb;
  put_be32(data, f.byte, (get_be32(data, f.byte) & ~mask) | (value << f.lsb & mask));
}

}  // namespace openflint::nv_reg

namespace openflint::nv_reg {

// An item's factory data (item.size bytes): every parameter at its default, valid bits set.
[[nodiscard]] inline std::vector<std::uint8_t> factory_item_data(const NvItem& item) {
  std::vector<std::uint8_t> data(item.size, 0);
  for (const NvParameter& p : item.parameters) {
    put_field(data, p.field, p.factory_default);
    if (p.valid) put_field(data, *p.valid, 1);
  }
  return data;
}

}  // namespace openflint::nv_reg
