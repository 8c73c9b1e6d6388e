// catalog_flash_chips: NOR parts found on these boards (JEDEC ids and CFI geometry from the vendors' datasheets).
#include <algorithm>
#include <string>

#include "devices/FlashChip.h"
#include "core/HexString.h"

// Designated initializers that leave members at their defaults are the point of these data
// records; GCC 12 -Wextra flags every omitted member, so that one warning is off here.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

const FlashChip kChips[] = {
    // Older part: 64 KiB sectors only.
    {.name = "M25P16", .vendor = "ST/Numonyx", .jedec_id = 0x202015, .size = 2 * kMiB,
     .has_4k_sectors = false, .electronic_signature = 0x14},
    {.name = "N25Q032A", .vendor = "Micron", .jedec_id = 0x20ba16, .size = 4 * kMiB},
    {.name = "N25Q064A", .vendor = "Micron", .jedec_id = 0x20ba17, .size = 8 * kMiB},
    {.name = "N25Q128A", .vendor = "Micron", .jedec_id = 0x20ba18, .size = 16 * kMiB},
    {.name = "MT25QL256", .vendor = "Micron", .jedec_id = 0x20ba19, .size = 32 * kMiB},
    {.name = "MT25QL512", .vendor = "Micron", .jedec_id = 0x20ba20, .size = 64 * kMiB},
    {.name = "W25Q16", .vendor = "Winbond", .jedec_id = 0xef4015, .size = 2 * kMiB},
    {.name = "W25Q32", .vendor = "Winbond", .jedec_id = 0xef4016, .size = 4 * kMiB},
    {.name = "W25Q64", .vendor = "Winbond", .jedec_id = 0xef4017, .size = 8 * kMiB},
    {.name = "W25Q128", .vendor = "Winbond", .jedec_id = 0xef4018, .size = 16 * kMiB},
    {.name = "W25Q256", .vendor = "Winbond", .jedec_id = 0xef4019, .size = 32 * kMiB},
    {.name = "W25Q512", .vendor = "Winbond", .jedec_id = 0xef4020, .size = 64 * kMiB},
    {.name = "MX25L1606E", .vendor = "Macronix", .jedec_id = 0xc22015, .size = 2 * kMiB},
    {.name = "MX25L3206E", .vendor = "Macronix", .jedec_id = 0xc22016, .size = 4 * kMiB},
    {.name = "MX25L6406E", .vendor = "Macronix", .jedec_id = 0xc22017, .size = 8 * kMiB},
    {.name = "MX25L12835F", .vendor = "Macronix", .jedec_id = 0xc22018, .size = 16 * kMiB},
    {.name = "MX25L25635F", .vendor = "Macronix", .jedec_id = 0xc22019, .size = 32 * kMiB},
    {.name = "MX25L51245G", .vendor = "Macronix", .jedec_id = 0xc2201a, .size = 64 * kMiB},
    // Parallel x8 parts of InfiniHost / InfiniHost III Ex boards: the two parts the first flint's
    // comments name (docs/legacy-devices.md). AMD Am29LV033C: 32 Mbit, 64 uniform 64 KiB sectors,
    // x8 only, AMD command set, no write buffer. Intel 28F320J3: 32 Mbit, 32 uniform 128 KiB
    // blocks, an x16 part strapped x8 (CFI offsets doubled), Intel command set, 32-byte buffer.
    {.name = "Am29LV033C", .vendor = "AMD", .jedec_id = 0x0100a3, .size = 4 * kMiB, .has_4k_sectors = false,
     .bus = FlashInterface::ParallelCfi, .cfi = {.command_set = 2, .stride = 1, .log2_write_buffer = 0}},
    {.name = "28F320J3", .vendor = "Intel", .jedec_id = 0x890016, .size = 4 * kMiB, .has_4k_sectors = false,
     .block_size = 128 * 1024, .bus = FlashInterface::ParallelCfi,
     .cfi = {.command_set = 1, .stride = 2, .log2_write_buffer = 5}},
    // InfiniScale / InfiniScale III firmware EEPROMs as openflint models them (the real parts are
    // unknown; docs/legacy-devices.md): four 24C512-class 64 KiB EEPROMs with 128-byte pages,
    // concatenated in the order of devices/I2cEepromMap.h. block_size is no physical erase unit
    // (EEPROMs have none) but the logical sector openflint's FS1 layout uses on them (4 KiB); an
    // "erase" writes 0xFF. No JEDEC id: EEPROMs have no identification command.
    {.name = "4x24C512", .vendor = "generic EEPROM", .jedec_id = 0, .size = 256 * 1024, .has_4k_sectors = false,
     .block_size = 4096, .page_size = 128, .bus = FlashInterface::I2cEeprom},
};

}  // namespace

std::span<const FlashChip> all_flash_chips() { return kChips; }

std::uint64_t largest_flash_size() {
  std::uint64_t largest = 0;
  for (const FlashChip& chip : kChips) largest = std::max(largest, chip.size);
  return largest;
}

Result<const FlashChip*> find_flash_chip_by_jedec(std::uint32_t jedec_id) {
  for (const FlashChip& chip : kChips) {
    if (chip.bus == FlashInterface::Spi && chip.jedec_id == jedec_id && jedec_id != 0) return &chip;
  }
  return make_error(ErrorCode::NotSupported, "unknown flash jedec id " + hex_string(jedec_id));
}

Result<const FlashChip*> find_flash_chip_by_cfi(std::uint8_t command_set, std::uint64_t size,
                                                std::uint32_t block_size) {
  for (const FlashChip& chip : kChips) {
    if (chip.bus == FlashInterface::ParallelCfi && chip.cfi.command_set == command_set && chip.size == size &&
        chip.block_size == block_size)
      return &chip;
  }
  return make_error(ErrorCode::NotSupported, "no catalog parallel flash with CFI command set " +
                                                 std::to_string(command_set) + ", " + std::to_string(size) +
                                                 " bytes in " + std::to_string(block_size) + "-byte blocks");
}

Result<const FlashChip*> find_flash_chip_by_electronic_signature(std::uint8_t signature) {
  if (signature != 0) {
    for (const FlashChip& chip : kChips) {
      if (chip.electronic_signature == signature) return &chip;
    }
  }
  return make_error(ErrorCode::NotSupported, "unknown flash electronic signature " + hex_string(signature));
}

Result<const FlashChip*> find_flash_chip_by_name(std::string_view name) {
  for (const FlashChip& chip : kChips) {
    if (chip.name == name) return &chip;
  }
  return make_error(ErrorCode::NotFound, "no flash chip named '" + std::string(name) + "'");
}

}  // namespace openflint
