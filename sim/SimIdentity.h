// SimIdentity: give a simulated device its own GUIDs in flash, as a manufacturer's `flint sg` would.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/Result.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

// Writes GUIDs base_guid, base_guid+1, ... into the image on the device's flash (image/ImagePatch
// set_guids: node, port 1, port 2, system image on FS2; DEV_INFO on FS3/FS4) — only the flash
// pages that change are written. `image_bytes` (0: the whole flash) bounds what is read and
// patched to the image at offset 0, so a copy-on-write flash (sim/FlashCells) is not faulted in
// beyond it. Takes effect at the next boot (power_cycle). Errors as set_guids (e.g.
// NotSupported for formats whose GUIDs it cannot patch).
[[nodiscard]] Result<void> write_flash_guids(SimDevice& device, std::uint64_t base_guid, std::size_t image_bytes = 0);

}  // namespace openflint::sim
