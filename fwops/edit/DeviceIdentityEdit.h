// DeviceIdentityEdit: `sg`/`sv` on a device — a change of the board's GUIDs, MACs or VSD written
// where the board keeps them. flint's sg/sv and the web console's identity form call this.
#pragma once

#include <functional>
#include <string>

#include "core/Result.h"
#include "flash/FlashReader.h"
#include "fwops/BurnTypes.h"
#include "fwops/Device.h"
#include "fwops/edit/DeviceDataEdit.h"
#include "image/ImageQuery.h"

namespace openflint {

struct IdentityEditOptions {
  bool failsafe = true;            // FS1/FS2 re-burn: false = --nofs
  bool verify_writes = true;       // false = --no_flash_verify
  bool override_firmware = false;  // --ocr: the CR-space gateway even where the firmware owns the flash
  bool force = false;              // FS3/FS4: rewrite a sector that cannot be rewritten power-cut safe
  FlashProgress reading;           // while the flash is read
  std::function<void(const BurnProgress&)> burning;  // while an FS1/FS2 image is re-burned
};

struct IdentityEdit {
  std::string method;  // how it was written, in words ("device data rewritten (1 sectors, ...)")
  ImageQuery after;    // the flash's image read back afterwards
};

// `patch` (image/ImagePatch's set_guids / set_vsd) applied to what the device's flash holds:
// FS3/FS4 keep the identity in the board's device data, rewritten power-cut safe per sector
// (patch_device_data: check, then write); FS1/FS2 keep it in the image, so the patched image is
// re-burned failsafe (burn_device_flash: same version and PSID, no questions). Then the flash is
// read again and queried. Errors name the device.
[[nodiscard]] Result<IdentityEdit> edit_device_identity(Device& device, const FlashPatch& patch,
                                                        const IdentityEditOptions& options);

}  // namespace openflint
