// DeviceDataEdit: rewrites an FS3/FS4 board's device data (DEV_INFO) on flash, power-cut safe per sector.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "flash/FlashDriver.h"
#include "fwops/burn/BoardIdentity.h"
#include "fwops/burn/SectorJournal.h"
#include "image/ImageFormat.h"

namespace openflint {

// A change of the whole flash image (image/ImagePatch's set_guids / set_vsd).
using FlashPatch = std::function<Result<std::vector<std::uint8_t>>(Bytes)>;

// `patch` applied to `flash_bytes` (the whole flash as read, a copy of `format` booting at
// `image_start`), then the sectors that differ written highest first (FS3: the device data at
// the flash end, then the ITOC entry that seals it; FS4: the DEV_INFO sector) through the
// power-cut-safe journal. Check, then write: refused with nothing written when the booting copy
// would stop verifying, or when a sector cannot be rewritten safely and `force` is off.
[[nodiscard]] Result<SafeWriteReport> patch_device_data(FlashDriver& flash, Bytes flash_bytes, ImageFormat format,
                                                        std::uint64_t image_start, const FlashPatch& patch, bool force);

// A burn's given FS3/FS4 identity (plan.given_guids / given_vsd) as one patch.
[[nodiscard]] FlashPatch given_identity_patch(const IdentityPlan& plan);

// Before a burn writes anything: the given identity must apply to the device data the burn
// keeps (the flash's) or writes (`image`'s, when plan.write_image_device_data). Nothing written.
[[nodiscard]] Result<void> check_given_identity(FlashDriver& flash, Bytes image, const IdentityPlan& plan);

// After the burn: the booting copy's DEV_INFO on flash takes the given identity (patch_device_data).
[[nodiscard]] Result<SafeWriteReport> write_given_identity(FlashDriver& flash, const IdentityPlan& plan);

}  // namespace openflint
