// Fs1PointerSector: the FS1 pointer sector (struct PS) and invariant-sector constants.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint::fs1 {

inline constexpr std::uint32_t kSignature = 0x5a445a44;
// Invariant sector.
inline constexpr std::size_t kInvFwIdOffset = 0x10;
inline constexpr std::size_t kInvLog2PtrOffset = 0x14;  // log2(sector) at 0x30 + (this & 0xffff)
inline constexpr std::size_t kSignatureOffset = 0x24;
inline constexpr std::size_t kBoot2Offset = 0x28;  // also in every image copy
// Image copy header.
inline constexpr std::size_t kFwIdOffset = 0x10;
inline constexpr std::size_t kInfoPtrOffset = 0x1C;
inline constexpr std::size_t kFwSizeOffset = 0x20;
inline constexpr std::size_t kGuidPtrOffset = 0x24;
inline constexpr std::size_t kGuidCount = 4;

// Pointer sector layout (0x108 bytes); VSD and PSID are kept byte-swapped per dword.
inline constexpr std::size_t kPsSize = 0x108;
inline constexpr std::size_t kPsVsdOffset = 0x20;
inline constexpr std::size_t kPsPsidOffset = 0xF0;
inline constexpr std::size_t kPsBranchOffset = 0x100;
inline constexpr std::size_t kPsCrcOffset = 0x104;

struct PointerSector {
  std::uint32_t fi_addr = 0;
  std::uint32_t fi_size = 0;
  std::uint32_t signature = 0;
  std::string vsd;
  std::string psid;
  std::uint32_t stored_crc = 0;
  std::uint16_t computed_crc = 0;
  [[nodiscard]] bool signed_ok() const { return signature == kSignature; }
  [[nodiscard]] bool crc_ok() const { return stored_crc == computed_crc; }
};

[[nodiscard]] Result<PointerSector> read_pointer_sector(Bytes data, std::uint64_t at);
// The 0x108 bytes of a signed pointer sector with its CRC.
[[nodiscard]] std::array<std::uint8_t, kPsSize> make_pointer_sector(std::uint32_t fi_addr,
                                                                    std::uint32_t fi_size,
                                                                    const std::string& vsd,
                                                                    const std::string& psid);
// log2(sector size) from the invariant sector; InvalidImage when absent or implausible.
[[nodiscard]] Result<unsigned> read_log2_sector_size(Bytes data, std::uint64_t offset);

}  // namespace openflint::fs1
