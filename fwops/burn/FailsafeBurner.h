// FailsafeBurner: burns an image into a device's flash so that a power cut at any point leaves
// a bootable copy (the old or the new one), following the image format's burn order.
#pragma once

#include "core/ByteReader.h"
#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "flash/FlashDriver.h"
#include "fwops/burn/BootableImage.h"
#include "fwops/BurnTypes.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Refuses, before anything is written: an image that does not verify (InvalidImage); as "burn
// refused: ...", an image whose hw ids exclude the device (Mismatch) or a PSID change without
// allow_psid_change (InvalidArgument); an identity that cannot be kept (see
// plan_identity). The board keeps its identity unless options.identity says otherwise. Version
// questions are the CLI's (through `decide`, asked only of a burn no rule refuses). Opens the
// flash behind `access` itself (journal finished, CacheReplacement::Refuse); a Device's burn is
// fwops/DeviceBurn.h burn_device.
[[nodiscard]] Result<BurnReport> burn_image(RegisterAccess& access, const DeviceInfo& info,
                                            Bytes image, const BurnOptions& options);
// The same burn on a flash already opened (fwops/DeviceFlash.h open_device_flash: the gateway, or
// the running firmware's MFBA/MFBE); `access` is only read (hw id, boot-address register).
[[nodiscard]] Result<BurnReport> burn_image(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver,
                                            const BootableImage& image, const BurnOptions& options);

}  // namespace openflint
