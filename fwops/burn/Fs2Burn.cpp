// Fs2Burn: FS2 burns — the new copy into the other (striped) chunk set, magic last.
#include <algorithm>
#include <optional>
#include <bit>
#include <string>
#include <vector>

#include "core/HexString.h"
#include "core/UninterruptibleSection.h"
#include "fwops/burn/FlashFormat.h"
#include "fwops/burn/SlotCopy.h"
#include "image/FirmwareImage.h"
#include "image/Fs2Header.h"
#include "image/Fs2Image.h"

namespace openflint {
namespace {

// The query of a flash copy of which the header and the sections it points at are loaded.
Result<ImageQuery> query_loaded_fs2(Bytes flash, const CopyLayout& layout) {
  if (layout.start >= flash.size()) return make_error(ErrorCode::InvalidImage, "FS2 copy past the flash end");
  if (!fs2_copy_striped(layout))
    return fs2::query_by_pointers(flash.subspan(layout.start, std::min<std::uint64_t>(layout.length, flash.size() - layout.start)));
  const auto log2_chunk = static_cast<unsigned>(std::countr_zero(layout.slot_size));
  // Only the chunks the copy spans (not the whole flash): both copies' stripes interleave.
  const std::uint64_t chunks = (layout.length + layout.slot_size - 1) / layout.slot_size;
  const Bytes striped = flash.first(std::min<std::uint64_t>(flash.size(), 2 * chunks * layout.slot_size));
  std::vector<std::uint8_t> logical = fs2::destripe(striped, layout.start != 0, log2_chunk);
  if (logical.size() > layout.length) logical.resize(layout.length);
  auto q = fs2::query_by_pointers(logical);
  if (q) q->image_start = layout.start;
  return q;
}

constexpr SlotFormat kFs2{fs2::probe, fs2::query, fs2::verify, load_fs2_copy, query_loaded_fs2, true};

struct Fs2Incoming {
  std::vector<std::uint8_t> copy;  // logical (de-striped) image bytes
  fs2::Header header;
};

Result<Fs2Incoming> read_incoming(Bytes image) {
  OF_ASSIGN(const ImageLocation loc, locate_image(image));
  Fs2Incoming in;
  OF_ASSIGN(in.header, fs2::read_header(image.subspan(loc.offset)));
  const std::uint64_t size = in.header.image_size;
  const std::uint64_t chunk = std::uint64_t{1} << in.header.log2_chunk;
  if (size < fs2::kBoot2Offset) return make_error(ErrorCode::InvalidImage, "FS2 image size " + hex_string(size) + " is too small");
  if (loc.offset == 0 && in.header.failsafe && fs2::has_magic(image, chunk)) {  // a striped flash dump
    in.copy = fs2::destripe(image, false, in.header.log2_chunk);
  } else {
    in.copy.assign(image.begin() + static_cast<std::ptrdiff_t>(loc.offset), image.end());
  }
  if (in.copy.size() < size) return make_error(ErrorCode::InvalidImage, "FS2 image file ends before its size " + hex_string(size));
  in.copy.resize(size);
  return in;
}

// Physical pieces of a copy of `size` logical bytes at `start` (striped when failsafe).
std::vector<ByteRange> pieces(std::uint64_t start, std::uint64_t size, bool failsafe, unsigned log2_chunk) {
  std::vector<ByteRange> out;
  const std::uint64_t chunk = std::uint64_t{1} << log2_chunk;
  if (!failsafe || (start != 0 && start != chunk)) return {{start, size}};
  for (std::uint64_t logical = 0; logical < size; logical += chunk)
    out.push_back({fs2::striped_address(logical, start != 0, log2_chunk), std::min(chunk, size - logical)});
  return out;
}

Result<void> write_pieces(FlashSession& s, const std::vector<ByteRange>& where, Bytes copy, std::string_view stage) {
  std::uint64_t logical = 0;
  for (const auto& piece : where) {
    if (logical >= copy.size()) break;
    const std::uint64_t n = std::min<std::uint64_t>(piece.length, copy.size() - logical);
    OF_TRY(s.write(piece.start, copy.subspan(logical, n), stage));
    logical += n;
  }
  return {};
}

Result<void> check_fits(const std::vector<ByteRange>& where, const std::vector<ByteRange>& keep, std::uint64_t flash_size) {
  for (const auto& p : where) {
    if (p.end() > flash_size)
      return make_error(ErrorCode::InvalidArgument, "FS2 copy piece at " + hex_string(p.start) + " runs past the flash end");
    for (const auto& k : keep)
      if (p.overlaps(k))
        return make_error(ErrorCode::InvalidArgument, "new copy at " + hex_string(p.start) + " would overwrite the running copy");
  }
  return {};
}

// SwitchX: the image must leave the configuration area at the end of flash alone (mstflint
// GetMaxImageSize; image/Fs2ConfigArea.h).
Result<void> check_config_area(const Fs2ConfigArea& area, const std::vector<ByteRange>& where, std::uint64_t size,
                               bool failsafe, std::uint64_t flash_size) {
  if (!area.present()) return {};
  const std::uint64_t max = area.max_image_size(flash_size, failsafe);
  if (size > max)
    return make_error(ErrorCode::InvalidArgument, "FS2 image of " + hex_string(size) + " bytes exceeds the " +
                                                      hex_string(max) + " this flash takes beside its configuration area");
  const ByteRange config{area.base(flash_size), flash_size - area.base(flash_size)};
  for (const auto& p : where)
    if (p.overlaps(config))
      return make_error(ErrorCode::InvalidArgument, "new copy at " + hex_string(p.start) +
                                                        " would overwrite the configuration area at " + hex_string(config.start));
  return {};
}

}  // namespace

Result<std::optional<CurrentCopy>> fs2_find_current(FlashSession& session, CopyScope scope) {
  return find_slot_copy(session, kFs2, scope);
}

Result<void> fs2_burn(FlashSession& s, Bytes image, const std::optional<CurrentCopy>& current) {
  OF_ASSIGN(Fs2Incoming in, read_incoming(image));
  const fs2::Header& h = in.header;
  if (s.options().failsafe && !h.failsafe)
    return make_error(ErrorCode::InvalidArgument, "the image is not failsafe: burn it with failsafe off (--nofs)");
  const std::uint64_t chunk = std::uint64_t{1} << h.log2_chunk;
  const bool failsafe = s.options().failsafe && current.has_value();
  const std::uint64_t target = failsafe && current->layout.start == 0 ? chunk : 0;
  const auto where = pieces(target, in.copy.size(), h.failsafe, h.log2_chunk);
  std::vector<ByteRange> keep;
  if (failsafe) {
    const unsigned cur_log2 = current->layout.slot_size != 0
                                  ? static_cast<unsigned>(std::countr_zero(current->layout.slot_size)) : 16;
    keep = pieces(current->layout.start, current->layout.length, current->layout.slot_size != 0, cur_log2);
  }
  OF_TRY(check_fits(where, keep, s.flash().size()));
  OF_TRY(check_config_area(s.info().fs2_config_area, where, in.copy.size(), h.failsafe, s.flash().size()));
  // A stop signal may end the burn inside the body (magic erased: the old copy boots); from the
  // magic on, and for an in-place write over a bootable copy throughout, the burn completes.
  std::optional<UninterruptibleSection> to_the_end;
  if (failsafe) {
    std::vector<std::uint8_t> body = in.copy;
    std::fill_n(body.begin(), kMagicSize, 0xff);
    OF_TRY(write_pieces(s, where, body, "writing"));
    to_the_end.emplace();
    OF_TRY(s.write(where.front().start, Bytes(in.copy).first(kMagicSize), "writing the magic"));
  } else {
    if (current) to_the_end.emplace();
    OF_TRY(write_pieces(s, where, in.copy, "writing"));
  }
  OF_TRY(s.set_boot_address(target));
  if (current && current->layout.start != target) OF_TRY(invalidate_magic(s, current->layout.start));
  s.report().new_copy_address = target;
  return {};
}

}  // namespace openflint
