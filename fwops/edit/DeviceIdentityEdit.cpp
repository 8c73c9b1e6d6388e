// DeviceIdentityEdit: sg/sv on a device, in its device data (FS3/FS4) or by a failsafe re-burn (FS1/FS2).
#include "fwops/edit/DeviceIdentityEdit.h"

#include "core/HexString.h"
#include "fwops/DeviceBurn.h"
#include "fwops/DeviceFlash.h"
#include "image/FlashImage.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace {

// FS1/FS2: the patched image goes through the failsafe burner (same version and PSID: no
// questions; an image for other devices is refused there). Returns the method used.
Result<std::string> reburn_patched(Device& device, Bytes image, const IdentityEditOptions& options) {
  BurnOptions b;
  b.failsafe = options.failsafe;
  b.verify_writes = options.verify_writes;
  b.identity.use_image_guids = true;  // the patched image carries the identity being set
  b.identity.use_image_vsd = true;
  b.progress = options.burning;
  b.override_firmware = options.override_firmware;
  OF_ASSIGN(const BurnReport r, burn_device_flash(device, image, b));
  return std::string(options.failsafe ? "failsafe burn" : "burn (not failsafe)") + ", new copy at " +
         hex_string(r.new_copy_address);
}

Result<std::string> patch_flash(Device& device, const FlashPatch& patch, const IdentityEditOptions& options) {
  std::vector<std::uint8_t> flash_bytes;
  {
    OF_ASSIGN(FlashDriver flash, open_device_flash(device, options.override_firmware));
    OF_ASSIGN(flash_bytes, flash.read(0, flash.size(), options.reading));
    OF_ASSIGN(const ImageQuery current, query_image(flash_bytes));
    if (identity_in_device_data(current.format)) {
      // FS3/FS4 keep GUIDs and VSD in the board's DEV_INFO, which a burn deliberately leaves alone.
      OF_ASSIGN(const SafeWriteReport r, patch_device_data(flash, flash_bytes, current.format, current.image_start,
                                                           patch, options.force));
      return "device data rewritten (" + std::to_string(r.sectors_in_place + r.sectors_journaled + r.sectors_forced) +
             " sectors, power-cut safe)";
    }
    OF_ASSIGN(flash_bytes, image_file_from_flash(flash_bytes));
  }  // the flash lock is released: the burner takes its own
  OF_ASSIGN(const std::vector<std::uint8_t> patched, patch(flash_bytes));
  return reburn_patched(device, patched, options);
}

}  // namespace

Result<IdentityEdit> edit_device_identity(Device& device, const FlashPatch& patch, const IdentityEditOptions& options) {
  IdentityEdit edit;
  OF_ASSIGN_CTX(edit.method, patch_flash(device, patch, options), device.name());
  OF_ASSIGN(FlashDriver flash, open_device_flash(device, options.override_firmware));
  OF_ASSIGN_CTX(const std::vector<std::uint8_t> bytes, flash.read(0, flash.size(), nullptr),
                device.name() + " after the edit");
  OF_ASSIGN_CTX(edit.after, query_image(bytes), device.name() + " after the edit");
  return edit;
}

}  // namespace openflint
