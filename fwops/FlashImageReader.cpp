// FlashImageReader: a BurnSession's lazy flash view, filled by the format's find_current.
#include "fwops/FlashImageReader.h"

#include "fwops/BurnSession.h"
#include "fwops/FormatBurner.h"

namespace openflint {

Result<SparseFlash> read_current_image(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver,
                                      CopyScope scope, bool with_board_data) {
  OF_ASSIGN(const FormatBurner* burner, format_burner(info.image_format));
  const BurnOptions options;
  BurnSession session(access, info, driver, options);
  auto current = burner->find_current(session, scope);
  if (!current) return make_error(std::move(current).error().with_context("reading the flash image"));
  if (with_board_data && current->has_value()) {
    for (const auto& r : (*current)->layout.device_data) OF_TRY(session.flash().ensure(r.start, r.length));
  }
  SparseFlash out;
  const Bytes view = session.flash().bytes();
  out.bytes.assign(view.begin(), view.end());
  out.image_found = current->has_value();
  if (out.image_found) out.query = (*current)->query;
  out.bytes_read = session.flash().bytes_read();
  return out;
}

}  // namespace openflint
