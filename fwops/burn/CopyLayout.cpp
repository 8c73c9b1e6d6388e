// CopyLayout: following FS2 headers and FS3/FS4 HW pointers, BOOT2 and ITOC/DTOC entries.
#include "fwops/burn/CopyLayout.h"

#include <algorithm>
#include <string>

#include "core/HexString.h"
#include "image/Fs2Header.h"
#include "image/SectionType.h"
#include "image/Toc.h"

namespace openflint {
namespace {

constexpr std::uint64_t kSector = 0x1000;
constexpr int kMaxTocEntries = 64;

Result<std::uint64_t> boot2_size(FlashView& view, std::uint64_t at) {
  OF_ASSIGN(const std::uint32_t dwords, view.be32(at + 4));
  if (dwords > (1u << 20)) return make_error(ErrorCode::InvalidImage, "BOOT2 at " + hex_string(at) + " is implausibly large");
  const std::uint64_t size = (std::uint64_t{dwords} + 4) * 4;
  OF_TRY(view.ensure(at, size));
  return size;
}

// FS3 ITOC: relative_addr bit per entry, device_data bit; FS4 ITOC: all relative; DTOC: board data.
enum class TocRole { Fs3Itoc, Fs4Itoc, Dtoc };

// Walks the entries after a TOC header; relative entries count from `base`, others are
// absolute. Device-data entries go to `layout.device_data`, the rest extend the copy.
Result<void> load_toc(FlashView& view, std::uint64_t toc, std::uint64_t base, TocRole role,
                      CopyScope scope, CopyLayout& layout) {
  for (int i = 1; i <= kMaxTocEntries; ++i) {
    const std::uint64_t at = toc + static_cast<std::uint64_t>(i) * kTocEntrySize;
    OF_TRY(view.ensure(at, kTocEntrySize));
    OF_ASSIGN_CTX(const TocEntry entry, parse_toc_entry(view.bytes(), at), "TOC entry at " + hex_string(at));
    if (entry.type == 0xff) return {};
    const bool relative = role == TocRole::Fs4Itoc || (role == TocRole::Fs3Itoc && entry.relative_addr);
    const std::uint64_t address = relative ? base + entry.flash_addr : entry.flash_addr;
    const bool board = role == TocRole::Dtoc || (role == TocRole::Fs3Itoc && (entry.fs3_device_data() || !relative));
    // Board data without a CRC (NV_DATA: 2 x 64 KiB) is neither checked nor rewritten by a
    // burn: reading it would only cost time (seconds over MADs). Whoever needs its bytes
    // ensure()s the range from layout.device_data.
    const bool no_crc = role == TocRole::Fs3Itoc ? entry.fs3_no_crc() : entry.crc_field == 1;
    const bool wanted = scope == CopyScope::Whole || section_type::is_query_section(entry.type);
    if ((!board || !no_crc) && wanted) OF_TRY(view.ensure(address, entry.size));
    if (board) {
      layout.device_data.push_back({address, entry.size});
    } else if (relative) {
      layout.length = std::max<std::uint64_t>(layout.length, address + entry.size - base);
    }
  }
  return make_error(ErrorCode::InvalidImage, "TOC at " + hex_string(toc) + " has no END entry");
}

}  // namespace

bool fs2_copy_striped(const CopyLayout& layout) {
  return layout.slot_size != 0 && (layout.start == 0 || layout.start == layout.slot_size);
}

namespace {

// Loads logical bytes [from, from + length) of an FS2 copy (through the stripes when striped).
Result<void> ensure_fs2_logical(FlashView& view, const CopyLayout& layout, unsigned log2_chunk,
                                std::uint64_t from, std::uint64_t length) {
  const std::uint64_t end = std::min<std::uint64_t>(from + length, layout.length);
  if (!fs2_copy_striped(layout)) return view.ensure(layout.start + from, end > from ? end - from : 0);
  const std::uint64_t chunk = layout.slot_size;
  for (std::uint64_t at = from; at < end;) {
    const std::uint64_t n = std::min(end, (at / chunk + 1) * chunk) - at;
    OF_TRY(view.ensure(fs2::striped_address(at, layout.start != 0, log2_chunk), n));
    at += n;
  }
  return {};
}

// A section a header word points at: its 16-byte header (the size dword 12 bytes before the
// payload), then the payload.
Result<void> ensure_fs2_pointed(FlashView& view, const CopyLayout& layout, unsigned log2_chunk, std::uint32_t ptr) {
  if (ptr < 16 || ptr >= layout.length) return {};  // the query reports the bad pointer
  OF_TRY(ensure_fs2_logical(view, layout, log2_chunk, ptr - 16, 16));
  const std::uint64_t size_at = ptr - 12;
  const std::uint64_t physical = fs2_copy_striped(layout)
                                     ? fs2::striped_address(size_at, layout.start != 0, log2_chunk)
                                     : layout.start + size_at;
  OF_ASSIGN(const std::uint32_t dwords, view.be32(physical));
  return ensure_fs2_logical(view, layout, log2_chunk, ptr, std::uint64_t{dwords} * 4);
}

}  // namespace

Result<CopyLayout> load_fs2_copy(FlashView& view, std::uint64_t start, CopyScope scope) {
  OF_TRY(view.ensure(start, fs2::kBoot2Offset));
  auto header = fs2::read_header(view.bytes().subspan(std::min<std::uint64_t>(start, view.size())));
  if (!header) return make_error(std::move(header).error());
  CopyLayout layout;
  layout.start = start;
  layout.length = header->image_size;
  if (layout.length < fs2::kBoot2Offset || layout.length > view.size())
    return make_error(ErrorCode::InvalidImage, "FS2 image size " + hex_string(layout.length) + " is out of range");
  if (header->failsafe) layout.slot_size = std::uint64_t{1} << header->log2_chunk;
  if (scope == CopyScope::Query) {
    OF_TRY(ensure_fs2_pointed(view, layout, header->log2_chunk, header->info_ptr & 0xffffff));
    OF_TRY(ensure_fs2_pointed(view, layout, header->log2_chunk, header->guid_ptr));
    return layout;
  }
  OF_TRY(ensure_fs2_logical(view, layout, header->log2_chunk, 0, layout.length));
  return layout;
}

Result<CopyLayout> load_fs3_copy(FlashView& view, std::uint64_t start, CopyScope scope) {
  CopyLayout layout;
  layout.start = start;
  OF_ASSIGN(const std::uint32_t format_word, view.be32(start + 0x24));
  layout.slot_size = std::uint64_t{1} << ((format_word >> 16) & 0x1f);
  OF_ASSIGN(const std::uint64_t boot2, boot2_size(view, start + 0x38));
  std::uint64_t offset = (0x38 + boot2 + kSector - 1) / kSector * kSector;
  for (;; offset += kSector) {
    if (start + offset >= view.size() || offset >= layout.slot_size)
      return make_error(ErrorCode::InvalidImage, "no ITOC after BOOT2 of the copy at " + hex_string(start));
    OF_TRY(view.ensure(start + offset, kTocHeaderSize));
    if (toc_signature_at(view.bytes(), start + offset, TocKind::Itoc)) break;
  }
  layout.length = offset + kTocHeaderSize;
  OF_TRY(load_toc(view, start + offset, start, TocRole::Fs3Itoc, scope, layout));
  return layout;
}

Result<CopyLayout> load_fs4_copy(FlashView& view, std::uint64_t start, CopyScope scope) {
  constexpr std::uint64_t kHwPointers = 0x18;
  CopyLayout layout;
  layout.start = start;
  OF_TRY(view.ensure(start, kHwPointers + 16 * 8));
  std::uint64_t extent = kHwPointers + 16 * 8;
  std::uint32_t ptr[16];
  for (int i = 0; i < 16; ++i) {
    OF_ASSIGN(ptr[i], view.be32(start + kHwPointers + 8 * static_cast<std::uint64_t>(i)));
    if (ptr[i] == 0xffffffffu || ptr[i] == 0 || ptr[i] >= view.size()) continue;
    OF_TRY(view.ensure(start + ptr[i], kSector));  // tools area, hashes table, ...
    extent = std::max<std::uint64_t>(extent, ptr[i] + 0x40);
  }
  if (ptr[1] != 0xffffffffu) {
    auto boot2 = boot2_size(view, start + ptr[1]);
    if (!boot2) return make_error(std::move(boot2).error());
    extent = std::max<std::uint64_t>(extent, ptr[1] + *boot2);
  }
  const std::uint64_t itoc = start + ptr[2];
  OF_TRY(view.ensure(itoc, 2 * kSector));  // the ITOC and its backup copy
  const std::uint64_t toc = toc_signature_at(view.bytes(), itoc, TocKind::Itoc) ? itoc : itoc + kSector;
  layout.length = std::max<std::uint64_t>(extent, ptr[2] + 2 * kSector);
  OF_TRY(load_toc(view, toc, start, TocRole::Fs4Itoc, scope, layout));
  const std::uint64_t dtoc = view.size() - kSector;
  OF_TRY(view.ensure(dtoc, kSector));
  layout.device_data.push_back({dtoc, kSector});
  if (toc_signature_at(view.bytes(), dtoc, TocKind::Dtoc)) {
    CopyLayout board;
    OF_TRY(load_toc(view, dtoc, 0, TocRole::Dtoc, scope, board));
    for (const auto& r : board.device_data) layout.device_data.push_back(r);
  }
  return layout;
}

}  // namespace openflint
