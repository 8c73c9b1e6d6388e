// SlotCopy: candidate scan and magic invalidation shared by the FS2/FS3/FS4 burners.
#include "fwops/SlotCopy.h"

#include <array>
#include <vector>

namespace openflint {

bool slot_copy_valid(const SlotFormat& format, FlashView& view, std::uint64_t address) {
  auto report = format.verify(view.bytes(), address);
  return report && report->bootable() && format.query(view.bytes(), address).has_value();
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
    if (!slot_copy_valid(format, view, at)) continue;
    return std::optional<CurrentCopy>(CurrentCopy{*layout, *format.query(view.bytes(), at)});
  }
  return std::optional<CurrentCopy>{};
}

Result<void> invalidate_magic(BurnSession& session, std::uint64_t address) {
  const std::array<std::uint8_t, kMagicSize> zeros{};
  return session.write(address, zeros, "invalidating the old copy");
}

}  // namespace openflint
