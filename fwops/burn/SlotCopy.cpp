// SlotCopy: the boot ROM's candidate scan over a lazy flash view, and magic invalidation, for the FS2/FS3/FS4 burners.
#include "fwops/burn/SlotCopy.h"

#include <algorithm>
#include <array>
#include <vector>

#include "core/HexString.h"
#include "fwops/burn/FlashFormat.h"
#include "image/BootCopy.h"

namespace openflint {

namespace {

// The one copy with a header, read in query scope; nullopt to fall back to whole copies.
Result<std::optional<CurrentCopy>> only_copy(FlashView& view, const SlotFormat& format, std::uint64_t at) {
  auto layout = format.load(view, at, CopyScope::Query);
  if (!layout) {
    if (layout.error().code() == ErrorCode::InvalidImage) return std::optional<CurrentCopy>{};
    return make_error(std::move(layout).error().with_context("reading the copy at " + hex_string(at)));
  }
  auto query = format.query_loaded(view.bytes(), *layout);
  if (!query) return std::optional<CurrentCopy>{};
  return std::optional<CurrentCopy>(CurrentCopy{*layout, *query});
}

}  // namespace

Result<std::optional<CurrentCopy>> find_slot_copy(FlashSession& session, const SlotFormat& format, CopyScope scope) {
  FlashView& view = session.flash();
  OF_ASSIGN(const std::optional<std::uint64_t> hint, session.boot_address());
  OF_ASSIGN(const FlashFormat* burner, flash_format(session.info().image_format));
  std::vector<std::uint64_t> candidates;
  for (const std::uint64_t at : boot_candidates(hint, view.size())) {
    OF_TRY(view.ensure(at, 0x40));
    if (format.probe(view.bytes(), at)) candidates.push_back(at);
  }
  if (scope == CopyScope::Query && candidates.size() == 1 && format.query_loaded != nullptr) {
    OF_ASSIGN(auto only, only_copy(view, format, candidates.front()));
    if (only) return only;
  }
  for (const std::uint64_t at : candidates) {
    auto layout = format.load(view, at, CopyScope::Whole);
    if (!layout) {
      if (layout.error().code() == ErrorCode::InvalidImage) continue;  // a broken copy
      return make_error(std::move(layout).error().with_context("reading the copy at " + hex_string(at)));
    }
    // The boot ROM's rule (image/BootCopy.h) on the bytes the layout loaded.
    if (!copy_bootable(burner->image_format, view.bytes(), at)) continue;
    const Bytes span = copy_view(burner->image_format, view.bytes(), at);
    return std::optional<CurrentCopy>(CurrentCopy{*layout, *format.query(span, at)});
  }
  return std::optional<CurrentCopy>{};
}

Result<void> invalidate_magic(FlashSession& session, std::uint64_t address) {
  const std::array<std::uint8_t, kMagicSize> zeros{};
  return session.write(address, zeros, "invalidating the old copy");
}

}  // namespace openflint
