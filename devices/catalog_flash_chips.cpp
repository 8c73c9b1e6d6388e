// catalog_flash_chips: SPI NOR parts found on these boards (JEDEC ids from the vendors' datasheets).
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
    if (chip.jedec_id == jedec_id) return &chip;
  }
  return make_error(ErrorCode::NotSupported, "unknown flash jedec id " + hex_string(jedec_id));
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
