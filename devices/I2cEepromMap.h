// I2cEepromMap: how a switch's firmware EEPROMs on its I2C bus form one linear storage space (InfiniScale class).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace openflint {

// The EEPROMs, in the order they are concatenated: linear address A lives in chip
// devices[A / chip_size] at offset A % chip_size. Each chip is a 24Cxx-class part addressed by a
// 7-bit device address and a 2-byte memory offset; a write transaction stays inside one page of
// page_size bytes (the part wraps inside the page otherwise).
// InfiniScale III: the device addresses 0x56, 0x57, 0x52, 0x53 are an INFERENCE (the ibis I2C test
// expects them as a table at offset 0x30 of EEPROM 0x56; ../shared/reference/legacy-devices.md
// §2.3), used as openflint's choice; the part size (24C512 class, 64 KiB, 128-byte pages) is our
// choice too — the real part numbers are unknown (docs/legacy-devices.md).
struct I2cEepromMap {
  static constexpr std::size_t kMaxDevices = 4;
  std::array<std::uint8_t, kMaxDevices> devices{};
  std::uint8_t device_count = 0;
  std::uint32_t chip_size = 0;   // bytes per EEPROM
  std::uint32_t page_size = 0;   // bytes per page write

  [[nodiscard]] constexpr std::uint64_t total_size() const { return std::uint64_t{chip_size} * device_count; }
  [[nodiscard]] constexpr std::uint8_t device_of(std::uint64_t address) const {
    return devices[static_cast<std::size_t>(address / chip_size)];
  }
  [[nodiscard]] constexpr std::uint32_t offset_of(std::uint64_t address) const {
    return static_cast<std::uint32_t>(address % chip_size);
  }
};

// InfiniScale / InfiniScale III boards as openflint models them: four 64 KiB 24C512-class EEPROMs.
inline constexpr I2cEepromMap kInfiniScaleEeproms{.devices = {0x56, 0x57, 0x52, 0x53},
                                                  .device_count = 4,
                                                  .chip_size = 64 * 1024,
                                                  .page_size = 128};

}  // namespace openflint
