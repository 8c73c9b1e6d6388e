// Fs34Burn: FS3/FS4 burns — the new copy into the other slot, magic last, board data kept.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/HexString.h"
#include "core/UninterruptibleSection.h"
#include "fwops/burn/FlashFormat.h"
#include "fwops/burn/SlotCopy.h"
#include "image/FirmwareImage.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"
#include "image/SectionType.h"
#include "image/Toc.h"

namespace openflint {
namespace {

Result<ImageQuery> query_loaded_fs3(Bytes flash, const CopyLayout& layout) { return fs3::query(flash, layout.start); }
Result<ImageQuery> query_loaded_fs4(Bytes flash, const CopyLayout& layout) { return fs4::query(flash, layout.start); }

constexpr SlotFormat kFs3{fs3::probe, fs3::query, fs3::verify, load_fs3_copy, query_loaded_fs3, false, true};
constexpr SlotFormat kFs4{fs4::probe, fs4::query, fs4::verify, load_fs4_copy, query_loaded_fs4};

// FS3 lists the board's device data (MFG_INFO, DEV_INFO, NV_DATA, VPD) in each copy's ITOC while
// the data itself stays on flash. A kept board therefore needs the new copy's device-data
// entries to describe what the flash holds (size, CRC), not what the file carried: they are
// taken from the running copy's ITOC, matched by type in order, each with its own entry CRC.
// (FS4 keeps such sections in the DTOC at the flash end, which is not rewritten at all.)
Result<std::vector<std::uint8_t>> adopt_device_entries(Bytes copy, Bytes flash, std::uint64_t current) {
  std::vector<std::uint8_t> out(copy.begin(), copy.end());
  OF_ASSIGN(const std::uint64_t new_itoc, fs3::find_itoc(copy, 0));
  OF_ASSIGN(const std::uint64_t old_itoc, fs3::find_itoc(flash, current));
  std::vector<std::pair<std::uint8_t, Bytes>> kept;  // the running copy's device-data entries
  for (std::uint64_t at = old_itoc + kTocHeaderSize;; at += kTocEntrySize) {
    OF_ASSIGN(const TocEntry e, parse_toc_entry(flash, at));
    if (e.type == section_type::kEnd) break;
    if (e.fs3_device_data()) kept.emplace_back(e.type, flash.subspan(at, kTocEntrySize));
  }
  for (std::uint64_t at = new_itoc + kTocHeaderSize;; at += kTocEntrySize) {
    OF_ASSIGN(const TocEntry e, parse_toc_entry(copy, at));
    if (e.type == section_type::kEnd) break;
    if (!e.fs3_device_data()) continue;
    const auto match = std::find_if(kept.begin(), kept.end(), [&](const auto& k) { return k.first == e.type; });
    if (match == kept.end()) continue;  // the board has no such section: the file's entry stays
    std::copy(match->second.begin(), match->second.end(), out.begin() + static_cast<long>(at));
    kept.erase(match);
  }
  return out;
}

struct Fs34Incoming {
  Bytes copy;                   // the image proper (header .. last section)
  std::vector<ByteRange> board;  // device data in the file, at flash addresses
  std::uint64_t slot_size = 0;
};

Result<Fs34Incoming> read_incoming(Bytes image, const SlotFormat& format, std::uint64_t flash_size) {
  OF_ASSIGN(const ImageLocation loc, locate_image(image));
  FlashView file = FlashView::of_bytes(image);
  OF_ASSIGN_CTX(const CopyLayout layout, format.load(file, loc.offset, CopyScope::Whole),
                "reading the image file");
  if (loc.offset + layout.length > image.size())
    return make_error(ErrorCode::InvalidImage, "image file ends inside its copy (" + hex_string(image.size()) + " bytes)");
  Fs34Incoming in;
  in.copy = image.subspan(loc.offset, layout.length);
  if (loc.offset == 0)  // a flash-layout file also carries a board's data (first burns use it)
    for (const auto& r : layout.device_data)
      if (r.end() <= image.size()) in.board.push_back(r);
  in.slot_size = layout.slot_size != 0 && layout.slot_size <= flash_size / 2 ? layout.slot_size : flash_size / 2;
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

// Body first with the magic left erased (a stop signal may end the burn between its sectors:
// the old copy still boots), then the magic (burn_slots: the steps from here on complete).
Result<void> write_body(FlashSession& s, Bytes copy, std::uint64_t target) {
  std::vector<std::uint8_t> body(copy.begin(), copy.end());
  std::fill_n(body.begin(), std::min<std::size_t>(kMagicSize, body.size()), 0xff);
  return s.write(target, body, "writing");
}

Result<void> burn_slots(FlashSession& s, Bytes image, const std::optional<CurrentCopy>& current,
                        const SlotFormat& format) {
  const std::uint64_t flash_size = s.flash().size();
  OF_ASSIGN(const Fs34Incoming in, read_incoming(image, format, flash_size));
  const bool failsafe = s.options().failsafe && current.has_value();
  std::uint64_t target = 0;
  if (failsafe) target = current->layout.start == 0 ? in.slot_size : 0;
  const bool file_board = !current || s.write_image_device_data();  // else the board's stays
  std::vector<ByteRange> keep = file_board ? in.board : current->layout.device_data;
  if (failsafe) keep.push_back({current->layout.start, current->layout.length});
  OF_TRY(check_target({target, in.copy.size()}, keep, flash_size));

  if (file_board) {  // nothing bootable to protect, or asked for: the board data comes from the file
    const UninterruptibleSection board_data;  // written whole or not at all
    for (const auto& r : in.board) OF_TRY(s.write(r.start, image.subspan(r.start, r.length), "writing device data"));
  }
  Bytes copy = in.copy;
  std::vector<std::uint8_t> adopted;
  if (!file_board && format.adopts_device_entries) {
    OF_ASSIGN_CTX(adopted, adopt_device_entries(in.copy, s.flash().bytes(), current->layout.start),
                  "keeping the board's device data");
    copy = adopted;
  }
  if (failsafe) OF_TRY(write_body(s, copy, target));
  // The magic, the boot address, the old copy's magic zeroed: at every instant one copy carries
  // magic and verifies, and once the new one does these steps complete (a stop signal waits).
  // Without failsafe over a bootable copy the whole in-place write is such a step.
  std::optional<UninterruptibleSection> to_the_end;
  if (failsafe || current) to_the_end.emplace();
  if (failsafe) {
    OF_TRY(s.write(target, copy.first(std::min<std::size_t>(kMagicSize, copy.size())), "writing the magic"));
  } else {
    OF_TRY(s.write(target, copy, "writing"));
  }
  OF_TRY(s.set_boot_address(target));
  if (current && current->layout.start != target) OF_TRY(invalidate_magic(s, current->layout.start));
  s.report().new_copy_address = target;
  return {};
}

// FS3: the device-data entries of the copy's ITOC become 0xFF.
Result<void> mask_device_entries(std::vector<std::uint8_t>& copy) {
  OF_ASSIGN(const std::uint64_t itoc, fs3::find_itoc(copy, 0));
  for (std::uint64_t at = itoc + kTocHeaderSize;; at += kTocEntrySize) {
    OF_ASSIGN(const TocEntry e, parse_toc_entry(copy, at));
    if (e.type == section_type::kEnd) return {};
    if (e.fs3_device_data()) std::fill_n(copy.begin() + static_cast<long>(at), kTocEntrySize, 0xff);
  }
}

}  // namespace

Result<std::vector<std::uint8_t>> firmware_component(ImageFormat format, Bytes image, std::uint64_t flash_size) {
  if (format != ImageFormat::Fs3 && format != ImageFormat::Fs4)
    return make_error(ErrorCode::NotSupported, std::string(to_string(format)) + " images are not taken by firmware");
  OF_ASSIGN(const Fs34Incoming in, read_incoming(image, format == ImageFormat::Fs3 ? kFs3 : kFs4, flash_size));
  std::vector<std::uint8_t> copy(in.copy.begin(), in.copy.end());
  std::fill_n(copy.begin(), std::min<std::size_t>(kMagicSize, copy.size()), 0xff);
  if (format == ImageFormat::Fs3) OF_TRY(mask_device_entries(copy));
  return copy;
}

Result<std::optional<CurrentCopy>> fs3_find_current(FlashSession& session, CopyScope scope) {
  return find_slot_copy(session, kFs3, scope);
}
Result<std::optional<CurrentCopy>> fs4_find_current(FlashSession& session, CopyScope scope) {
  return find_slot_copy(session, kFs4, scope);
}

Result<void> fs3_burn(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current) {
  return burn_slots(session, image, current, kFs3);
}
Result<void> fs4_burn(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current) {
  return burn_slots(session, image, current, kFs4);
}

}  // namespace openflint
