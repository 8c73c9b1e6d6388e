// BootRom: picks the copy a device boots from its flash, by the rules of its image format.
#pragma once

#include <cstdint>
#include <optional>

#include "core/ByteReader.h"
#include "devices/DeviceInfo.h"
#include "sim/BootState.h"

namespace openflint::sim {

// The copy image/BootCopy.h's find_boot_copy picks (the rule flint and the burner use too),
// with `boot_address` the boot-address register. None: recovery mode with the catalog's
// recovery PCI id. Reads only `flash` (the array), never the gateway.
[[nodiscard]] BootState run_boot_rom(const DeviceInfo& info, Bytes flash,
                                     std::optional<std::uint64_t> boot_address);

// Whether a bootable copy of `format` starts at `offset` of `flash` (FS1: an FS1 flash at 0
// with at least one complete copy). The burner's tests use this as their oracle too.
[[nodiscard]] bool copy_is_bootable(ImageFormat format, Bytes flash, std::uint64_t offset);

}  // namespace openflint::sim
