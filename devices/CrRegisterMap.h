// CrRegisterMap: the named CR-space registers of a device — derived from its catalog record
// (hw id, flash gateway, flash semaphore, boot address) plus its family's CrSpaceLayout table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "devices/DeviceInfo.h"

namespace openflint {

struct CrRegister {
  std::uint32_t address = 0;
  std::string name;  // "hw_id", "flash_gw.cmd", "flash_semaphore", ...
  ReadEffect read_effect = ReadEffect::None;
  std::vector<RegisterField> fields;  // empty: the dword as a whole
};

// Every register the catalog names for `info`, ascending by address, one per address (the
// record-derived name wins over a family table naming the same address).
[[nodiscard]] std::vector<CrRegister> cr_registers(const DeviceInfo& info);

// The register at `address`, or nullptr.
[[nodiscard]] const CrRegister* find_cr_register(const std::vector<CrRegister>& registers, std::uint32_t address);

// Bits [field.msb:field.lsb] of `word`, shifted down.
[[nodiscard]] constexpr std::uint32_t field_value(const RegisterField& field, std::uint32_t word) {
  const unsigned width = static_cast<unsigned>(field.msb) - field.lsb + 1;
  const std::uint32_t mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u);
  return (word >> field.lsb) & mask;
}

}  // namespace openflint
