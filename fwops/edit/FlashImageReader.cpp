// FlashImageReader: the copy the device boots, from a FlashSession's lazy flash view (find_current) or the whole flash.
#include "fwops/edit/FlashImageReader.h"

#include "fwops/burn/FlashSession.h"
#include "fwops/burn/FlashFormat.h"
#include "image/BootCopy.h"
#include "image/FirmwareImage.h"

namespace openflint {

namespace {

FlashView::Reader reads_from(FlashReader& flash) {
  return [&flash](std::uint64_t address, std::span<std::uint8_t> out) { return flash.read_into(address, out); };
}

}  // namespace

Result<SparseFlash> read_current_image(RegisterAccess& access, const DeviceInfo& info, FlashReader& flash,
                                      CopyScope scope, bool with_board_data) {
  OF_ASSIGN(const FlashFormat* burner, flash_format(info.image_format));
  const BurnOptions options;
  FlashSession session(access, info, flash.size(), reads_from(flash), options);
  OF_ASSIGN_CTX(const std::optional<CurrentCopy> current, burner->find_current(session, scope),
                "reading the flash image");
  if (with_board_data && current.has_value()) {
    for (const auto& r : current->layout.device_data) OF_TRY(session.flash().ensure(r.start, r.length));
  }
  SparseFlash out;
  const Bytes view = session.flash().bytes();
  out.bytes.assign(view.begin(), view.end());
  out.image_found = current.has_value();
  out.format = burner->image_format;
  if (out.image_found) {
    out.query = current->query;
    out.copy_start = current->layout.start;
  }
  out.bytes_read = session.flash().bytes_read();
  return out;
}

Result<SparseFlash> read_whole_flash(RegisterAccess& access, const DeviceInfo& info, FlashReader& flash,
                                     const FlashProgress& progress) {
  OF_ASSIGN(const FlashFormat* burner, flash_format(info.image_format));
  SparseFlash out;
  out.bytes.resize(flash.size());
  OF_TRY(flash.read_into(0, out.bytes, progress));
  out.bytes_read = out.bytes.size();
  out.format = burner->image_format;
  const BurnOptions options;
  FlashSession session(access, info, flash.size(), reads_from(flash), options);
  OF_ASSIGN(const std::optional<std::uint64_t> boot_address, session.boot_address());
  if (auto copy = find_boot_copy(out.format, out.bytes, boot_address)) {
    out.image_found = true;
    out.query = copy->query;
    out.copy_start = copy->start;
  }
  return out;
}

Result<VerifyReport> verify_found_copy(const SparseFlash& flash) {
  if (flash.image_found) return verify_copy(flash.format, flash.bytes, flash.copy_start);
  return verify_image(flash.bytes);
}

}  // namespace openflint
