// BootRom: picks the copy a device boots from its flash, by the rules of its image format.
#pragma once

#include <cstdint>
#include <optional>

#include "core/ByteReader.h"
#include "devices/DeviceInfo.h"
#include "sim/BootState.h"

namespace openflint::sim {

// FS1: the first pointer sector (primary, then secondary) that is signed, CRC-correct and
// points at a complete image (BOOT2 and every section CRC good) behind a signed invariant
// sector. FS2/FS3/FS4: the copy at `boot_address` (the boot-address register) when it holds
// the format's magic and verifies; otherwise the first candidate start (0, then the powers of
// two from 64 KiB to half the flash) that does. None: recovery mode with the catalog's
// recovery PCI id. Reads only `flash` (the array), never the gateway.
[[nodiscard]] BootState run_boot_rom(const DeviceInfo& info, Bytes flash,
                                     std::optional<std::uint64_t> boot_address);

// Whether a bootable copy of `format` starts at `offset` of `flash` (FS1: an FS1 flash at 0
// with at least one complete copy). The burner's tests use this as their oracle too.
[[nodiscard]] bool copy_is_bootable(ImageFormatId format, Bytes flash, std::uint64_t offset);

}  // namespace openflint::sim
