// SlotCopy: candidate scan and magic invalidation shared by the FS2/FS3/FS4 burners.
#include "fwops/SlotCopy.h"

#include <algorithm>
#include <array>
#include <vector>

namespace openflint {

bool slot_copy_valid(const SlotFormat& format, Bytes flash, std::uint64_t address) {
  auto report = format.verify(flash, address);
  return report && report->bootable() && format.query(flash, address).has_value();
}

Bytes copy_span(const SlotFormat& format, Bytes flash, const CopyLayout& layout) {
  if (!format.striped_chunks || layout.slot_size == 0) return flash;
  const std::uint64_t chunk = layout.slot_size;
  const std::uint64_t chunks = (layout.length + chunk - 1) / chunk;
  return flash.first(std::min<std::uint64_t>(flash.size(), std::max(2 * chunks * chunk, layout.start + chunk)));
}

Result<std::optional<CurrentCopy>> find_slot_copy(BurnSession& session, const SlotFormat& format) {
  FlashView& view = session.flash();
  std::vector<std::uint64_t> candidates;
  OF_ASSIGN(const std::optional<std::uint64_t> hint, session.boot_address());
  if (hint) candidates.push_back(*hint);
  candidates.push_back(0);
  for (std::uint64_t at = 0x10000; at <= view.size() / 2; at *= 2) candidates.push_back(at);
  for (const std::uint64_t at : candidates) {
    if (at >= view.size()) continue;
    OF_TRY(view.ensure(at, 0x40));
    if (!format.probe(view.bytes(), at)) continue;
    auto layout = format.load(view, at);
    if (!layout) {
      if (layout.error().code() == ErrorCode::InvalidImage) continue;  // a broken copy
      return make_error(std::move(layout).error().with_context("reading the copy at flash start"));
    }
    const Bytes span = copy_span(format, view.bytes(), *layout);
    if (!slot_copy_valid(format, span, at)) continue;
    return std::optional<CurrentCopy>(CurrentCopy{*layout, *format.query(span, at)});
  }
  return std::optional<CurrentCopy>{};
}

Result<void> invalidate_magic(BurnSession& session, std::uint64_t address) {
  const std::array<std::uint8_t, kMagicSize> zeros{};
  return session.write(address, zeros, "invalidating the old copy");
}

}  // namespace openflint
