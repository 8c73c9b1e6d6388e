// DeviceVerify: open the reader, read the flash, verify the found copy.
#include "fwops/DeviceVerify.h"

#include "fwops/DeviceFlash.h"
#include "fwops/edit/FlashImageReader.h"

namespace openflint {

Result<DeviceVerify> verify_device(Device& device, bool override_firmware, const FlashProgress& progress) {
  OF_ASSIGN(auto flash, open_device_flash_reader(device, override_firmware));
  OF_ASSIGN_CTX(const SparseFlash found, read_device_flash(device, *flash, false, progress), device.name());
  OF_ASSIGN_CTX(VerifyReport report, verify_found_copy(found), device.name());
  if (!found.image_found && report.bootable()) report.problems.push_back("the boot ROM finds no bootable copy on flash");
  const bool ok = found.image_found && report.bootable();
  return DeviceVerify{std::move(report), ok};
}

}  // namespace openflint
