// CrSpaceWords: checked reads and writes of CR-space dwords on an opened device (mst mread/mwrite):
// the address must be dword aligned and inside the family's CR-space (catalog), a sim persists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "fwops/Device.h"

namespace openflint {

// InvalidArgument (naming the address, the family and its CR-space size) unless `dwords` dwords
// from `address` are aligned and inside info.cr_space.size (not checked when the size is unknown).
[[nodiscard]] Result<void> check_cr_range(const DeviceInfo& info, std::uint64_t address, std::uint64_t dwords);

// `dwords` consecutive dwords from `address` (checked), in transport-sized blocks. Reads what is
// asked, whatever its side effects (as mstmread does); a sim:PATH device is not saved afterwards.
[[nodiscard]] Result<std::vector<std::uint32_t>> read_cr_words(Device& device, std::uint64_t address,
                                                               std::uint64_t dwords);

// Writes one dword (checked), then Device::commit() so a sim:PATH device keeps it.
[[nodiscard]] Result<void> write_cr_word(Device& device, std::uint64_t address, std::uint32_t value);

// What a field write changed.
struct FieldWrite {
  std::uint32_t address = 0;
  std::string register_name;
  std::uint32_t before = 0;  // the whole dword
  std::uint32_t after = 0;
};

// Sets field `field` of the catalog register at `address` (cr_registers: a named register and
// one of its fields; "" for a register without fields: the whole dword) to `value`: reads the
// dword, replaces the field's bits, writes it and commits. Refused (InvalidArgument) for an
// address the catalog does not name, a value wider than the field, and a register whose read
// takes a lock (the gateway, the semaphores: mst dump never reads them either).
[[nodiscard]] Result<FieldWrite> write_cr_field(Device& device, std::uint32_t address, const std::string& field,
                                                std::uint32_t value);

}  // namespace openflint
