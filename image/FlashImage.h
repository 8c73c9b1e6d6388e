// FlashImage: turns a flash dump into the image file that holds the same bootable firmware.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/BootCopy.h"

namespace openflint {

// The active image of `flash` as a stand-alone file that verifies on its own (what `ri` saves
// and what a re-burn takes):
//  - FS1: the whole layout from the invariant sector to the end of the last copy;
//  - FS2: the active copy, de-striped when the flash is a failsafe (striped) one;
//  - FS3/FS4: the active copy moved to offset 0, and the board's device data (absolute flash
//    addresses: MFG_INFO, DEV_INFO, NV_DATA, the FS4 DTOC) at the same addresses as on flash.
// InvalidImage when the flash holds no image.
[[nodiscard]] Result<std::vector<std::uint8_t>> image_file_from_flash(Bytes flash);
// The same for a given copy (the one the boot ROM starts, image/BootCopy.h), which need not be
// the first copy on flash.
[[nodiscard]] Result<std::vector<std::uint8_t>> image_file_from_copy(Bytes flash, const BootCopy& copy);

}  // namespace openflint
