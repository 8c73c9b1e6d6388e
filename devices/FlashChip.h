// FlashChip: one NOR flash part as catalog data (SPI: JEDEC id; parallel: CFI command set; geometry).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/Result.h"
#include "devices/SpiOpcode.h"

namespace openflint {

// How the part is wired to the ASIC.
enum class FlashInterface : std::uint8_t {
  Spi,          // serial NOR behind an SPI gateway
  ParallelCfi,  // x8 parallel NOR behind the InfiniHost CR_FLASH gateway, identified by its CFI query
  I2cEeprom,    // 24Cxx-class EEPROMs on an I2C bus (a record describes the whole set a board carries)
};

// What a parallel part answers to the CFI query (JEDEC JESD68), as far as the tools use it
// (docs/legacy-devices.md).
struct CfiInfo {
  std::uint8_t command_set = 0;        // CFI 0x13: 1 = Intel/Sharp extended, 2 = AMD/Fujitsu standard
  std::uint8_t stride = 1;             // byte-address step between CFI offsets: 2 for an x16 part in x8 mode
  std::uint8_t log2_write_buffer = 0;  // CFI 0x2A: 0 = no write buffer
};

struct FlashChip {
  std::string_view name;        // e.g. "N25Q128A"
  std::string_view vendor;      // e.g. "Micron"
  std::uint32_t jedec_id = 0;   // manufacturer << 16 | memory type << 8 | capacity code
  std::uint64_t size = 0;       // bytes
  bool has_4k_sectors = true;   // supports 0x20/0x21 subsector erase
  std::uint32_t block_size = 64 * 1024;  // 0xD8/0xDC erase unit
  std::uint32_t page_size = 256;
  // Answer to RES (0xAB) after its 3 dummy bytes; 0 = not identified that way. On M25Pxx parts
  // it is log2(size) - 1 (mstflint mflash: signatures 0x10..0x16).
  std::uint8_t electronic_signature = 0;
  FlashInterface bus = FlashInterface::Spi;
  CfiInfo cfi;  // parallel parts only; their jedec_id is manufacturer << 16 | device id

  [[nodiscard]] constexpr std::uint32_t min_erase_size() const {
    return has_4k_sectors ? 4096u : block_size;
  }
  // The opcode erasing min_erase_size() (3- or 4-byte address form).
  [[nodiscard]] constexpr std::uint8_t min_erase_opcode(bool four_byte) const {
    if (has_4k_sectors) return four_byte ? spi::kSubsectorErase4 : spi::kSubsectorErase;
    return four_byte ? spi::kSectorErase4 : spi::kSectorErase;
  }
  // NOR must be erased (bits back to 1) before a program can set them; an EEPROM's page write
  // replaces the bytes, so a differential write only writes the bytes that differ.
  [[nodiscard]] constexpr bool erase_before_program() const { return bus != FlashInterface::I2cEeprom; }
  // Parts above 16 MiB cannot address their whole array with 3 address bytes.
  [[nodiscard]] constexpr bool needs_4byte_address() const { return size > (std::uint64_t{1} << 24); }
};

// The catalog of supported parts (devices/catalog_flash_chips.cpp).
[[nodiscard]] std::span<const FlashChip> all_flash_chips();
// The largest catalog part: no firmware image or flash dump can be bigger (the bound on inputs).
[[nodiscard]] std::uint64_t largest_flash_size();
// SPI parts only.
[[nodiscard]] Result<const FlashChip*> find_flash_chip_by_jedec(std::uint32_t jedec_id);
// The parallel part with this CFI geometry: command set, size and (uniform) erase block size.
[[nodiscard]] Result<const FlashChip*> find_flash_chip_by_cfi(std::uint8_t command_set, std::uint64_t size,
                                                             std::uint32_t block_size);
[[nodiscard]] Result<const FlashChip*> find_flash_chip_by_name(std::string_view name);
// NotSupported when no catalog part answers RES with `signature`.
[[nodiscard]] Result<const FlashChip*> find_flash_chip_by_electronic_signature(std::uint8_t signature);

}  // namespace openflint
