// BootGuard: the boot rule on the flash before and after a raw write (see BootGuard.h).
#include "fwops/burn/BootGuard.h"

#include "fwops/burn/FlashSession.h"
#include "fwops/edit/FlashImageReader.h"
#include "image/BootCopy.h"

namespace openflint {

Result<BootImpact> boot_impact(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver,
                               std::span<const FlashEdit> edits) {
  SparseFlash found;
  if (driver.costly_reads()) {
    OF_ASSIGN(found, read_current_image(access, info, driver, CopyScope::Whole, true));
  } else {
    OF_ASSIGN(found, read_whole_flash(access, info, driver));
  }
  BootImpact impact;
  if (!found.image_found) return impact;
  impact.boots_now = found.copy_start;
  std::vector<std::uint8_t> after = found.bytes;
  apply_edits(after, edits);
  const std::uint64_t layout = found.format == ImageFormat::Fs1 ? 0 : found.copy_start;  // FS1: the flash layout
  if (copy_bootable(found.format, after, layout)) {
    impact.boots_after = found.copy_start;
    return impact;
  }
  if (driver.costly_reads()) return impact;  // the other candidates were not read
  const BurnOptions options;
  FlashSession session(access, info, driver, options);
  OF_ASSIGN(const std::optional<std::uint64_t> boot_address, session.boot_address());
  if (auto copy = find_boot_copy(found.format, after, boot_address)) impact.boots_after = copy->start;
  return impact;
}

}  // namespace openflint
