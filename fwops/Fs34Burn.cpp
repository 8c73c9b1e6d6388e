// Fs34Burn: FS3/FS4 burns — the new copy into the other slot, magic last, board data kept.
#include <algorithm>
#include <string>
#include <vector>

#include "devices/HexString.h"
#include "fwops/FormatBurner.h"
#include "fwops/SlotCopy.h"
#include "image/FirmwareImage.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"

namespace openflint {
namespace {

constexpr SlotFormat kFs3{fs3::probe, fs3::query, fs3::verify, load_fs3_copy};
constexpr SlotFormat kFs4{fs4::probe, fs4::query, fs4::verify, load_fs4_copy};

struct Incoming {
  Bytes copy;                   // the image proper (header .. last section)
  std::vector<ByteRange> board;  // device data in the file, at flash addresses
  std::uint64_t slot_size = 0;
};

Result<Incoming> read_incoming(Bytes image, const SlotFormat& format, std::uint64_t flash_size) {
  OF_ASSIGN(const ImageLocation loc, locate_image(image));
  FlashView file = FlashView::of_bytes(image);
  auto layout = format.load(file, loc.offset);
  if (!layout) return make_error(std::move(layout).error().with_context("reading the image file"));
  if (loc.offset + layout->length > image.size())
    return make_error(ErrorCode::InvalidImage, "image file ends inside its copy (" + hex_string(image.size()) + " bytes)");
  Incoming in;
  in.copy = image.subspan(loc.offset, layout->length);
  if (loc.offset == 0)  // a flash-layout file also carries a board's data (first burns use it)
    for (const auto& r : layout->device_data)
      if (r.end() <= image.size()) in.board.push_back(r);
  in.slot_size = layout->slot_size != 0 && layout->slot_size <= flash_size / 2 ? layout->slot_size : flash_size / 2;
  return in;
}

Result<void> check_target(const ByteRange& target, const std::vector<ByteRange>& keep, std::uint64_t flash_size) {
  if (target.end() > flash_size)
    return make_error(ErrorCode::InvalidArgument, "image of " + hex_string(target.length) + " bytes at " +
                                                      hex_string(target.start) + " does not fit the flash");
  for (const auto& k : keep)
    if (target.overlaps(k))
      return make_error(ErrorCode::InvalidArgument, "new copy at " + hex_string(target.start) + "+" +
                                                        hex_string(target.length) + " would overwrite " +
                                                        hex_string(k.start) + "+" + hex_string(k.length));
  return {};
}

// Body first with the magic left erased, then the magic, then the boot address, then the old
// copy's magic zeroed: at every instant one copy carries magic and verifies.
Result<void> write_copy_failsafe(BurnSession& s, Bytes copy, std::uint64_t target) {
  std::vector<std::uint8_t> body(copy.begin(), copy.end());
  std::fill_n(body.begin(), std::min<std::size_t>(kMagicSize, body.size()), 0xff);
  OF_TRY(s.write(target, body, "writing"));
  OF_TRY(s.write(target, copy.first(std::min<std::size_t>(kMagicSize, copy.size())), "writing the magic"));
  return {};
}

Result<void> burn_slots(BurnSession& s, Bytes image, const std::optional<CurrentCopy>& current,
                        const SlotFormat& format) {
  const std::uint64_t flash_size = s.flash().size();
  OF_ASSIGN(const Incoming in, read_incoming(image, format, flash_size));
  const bool failsafe = s.options().failsafe && current.has_value();
  std::uint64_t target = 0;
  if (failsafe) target = current->layout.start == 0 ? in.slot_size : 0;
  std::vector<ByteRange> keep = current ? current->layout.device_data : in.board;
  if (failsafe) keep.push_back({current->layout.start, current->layout.length});
  OF_TRY(check_target({target, in.copy.size()}, keep, flash_size));

  if (!current) {  // nothing bootable to protect: the board data comes from the file
    for (const auto& r : in.board) OF_TRY(s.write(r.start, image.subspan(r.start, r.length), "writing device data"));
  }
  if (failsafe) {
    OF_TRY(write_copy_failsafe(s, in.copy, target));
  } else {
    OF_TRY(s.write(target, in.copy, "writing"));
  }
  OF_TRY(s.set_boot_address(target));
  if (current && current->layout.start != target) OF_TRY(invalidate_magic(s, current->layout.start));
  s.report().new_copy_address = target;
  return {};
}

}  // namespace

Result<std::optional<CurrentCopy>> fs3_find_current(BurnSession& session) { return find_slot_copy(session, kFs3); }
Result<std::optional<CurrentCopy>> fs4_find_current(BurnSession& session) { return find_slot_copy(session, kFs4); }

Result<void> fs3_burn(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current) {
  return burn_slots(session, image, current, kFs3);
}
Result<void> fs4_burn(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current) {
  return burn_slots(session, image, current, kFs4);
}

}  // namespace openflint
