// SlotCopy: candidate scan and magic invalidation shared by the FS2/FS3/FS4 burners.
#include "fwops/SlotCopy.h"

#include <algorithm>
#include <array>
#include <vector>

#include "core/HexString.h"

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

namespace {

std::vector<std::uint64_t> candidate_starts(std::optional<std::uint64_t> hint, std::uint64_t flash_size) {
  std::vector<std::uint64_t> out;
  const auto add = [&](std::uint64_t at) {  // the hint may repeat a fixed candidate
    if (at < flash_size && std::find(out.begin(), out.end(), at) == out.end()) out.push_back(at);
  };
  if (hint) add(*hint);
  add(0);
  for (std::uint64_t at = 0x10000; at <= flash_size / 2; at *= 2) add(at);
  return out;
}

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

Result<std::optional<CurrentCopy>> find_slot_copy(BurnSession& session, const SlotFormat& format, CopyScope scope) {
  FlashView& view = session.flash();
  OF_ASSIGN(const std::optional<std::uint64_t> hint, session.boot_address());
  std::vector<std::uint64_t> candidates;
  for (const std::uint64_t at : candidate_starts(hint, view.size())) {
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
