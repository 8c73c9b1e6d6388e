// FirmwareFlashRegisters: ids of the firmware-mediated flash registers and the byte order of their flash data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace openflint::flash_reg {

// mft-internals §4.1.
inline constexpr std::uint16_t kMfpa = 0x9010;
inline constexpr std::uint16_t kMfba = 0x9011;
inline constexpr std::uint16_t kMfbe = 0x9012;
inline constexpr std::uint16_t kMfmc = 0x9013;
inline constexpr std::uint16_t kMcqs = 0x9060;
inline constexpr std::uint16_t kMcqi = 0x9061;
inline constexpr std::uint16_t kMcc = 0x9062;
inline constexpr std::uint16_t kMcda = 0x9063;
inline constexpr std::uint16_t kMcam = 0x907f;

inline constexpr std::size_t kMfbaHeaderBytes = 0x0c;  // fs, size, address; data follows
inline constexpr std::size_t kMfbaMaxData = 256;
inline constexpr std::size_t kMfpaBytes = 0x20;
inline constexpr std::size_t kMfbeBytes = 0x0c;
inline constexpr std::size_t kMfmcBytes = 0x1c;
// mflash writes at most 128 bytes per MFBA on every part but ConnectX-3 (mft-internals §4.4).
inline constexpr std::size_t kMfbaMaxWrite = 128;
// MFPA 0x10 / MFBE 0x00: the 64 KiB and 32 KiB erase flags (capability in MFPA, request in MFBE).
inline constexpr std::uint32_t kBulk64kErase = 1u << 29;
inline constexpr std::uint32_t kBulk32kErase = 1u << 30;
inline constexpr std::size_t kMcdaHeaderBytes = 0x10;  // handle, offset, size, reserved; data follows

// Flash bytes in MFBA and MCDA data dwords: the tools load them into little-endian host dwords
// and the register packs each dword big-endian, so flash byte 4i+j travels as byte 3-j of
// data dword i. `wire` holds whole dwords (its size rounded up to 4).
inline void flash_bytes_to_wire(std::span<const std::uint8_t> bytes, std::span<std::uint8_t> wire) {
  for (std::size_t k = 0; k < bytes.size(); ++k) wire[(k & ~std::size_t{3}) + (3 - (k & 3))] = bytes[k];
}
inline void wire_to_flash_bytes(std::span<const std::uint8_t> wire, std::span<std::uint8_t> bytes) {
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = wire[(k & ~std::size_t{3}) + (3 - (k & 3))];
}

}  // namespace openflint::flash_reg
