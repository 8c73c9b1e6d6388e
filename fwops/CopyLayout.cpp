// CopyLayout: following FS2 headers and FS3/FS4 HW pointers, BOOT2 and ITOC/DTOC entries.
#include "fwops/CopyLayout.h"

#include <algorithm>
#include <string>

#include "devices/HexString.h"
#include "image/Fs2Header.h"
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
                      CopyLayout& layout) {
  for (int i = 1; i <= kMaxTocEntries; ++i) {
    const std::uint64_t at = toc + static_cast<std::uint64_t>(i) * kTocEntrySize;
    OF_TRY(view.ensure(at, kTocEntrySize));
    auto entry = parse_toc_entry(view.bytes(), at);
    if (!entry) return make_error(std::move(entry).error().with_context("TOC entry at " + hex_string(at)));
    if (entry->type == 0xff) return {};
    const bool relative = role == TocRole::Fs4Itoc || (role == TocRole::Fs3Itoc && entry->relative_addr);
    const std::uint64_t address = relative ? base + entry->flash_addr : entry->flash_addr;
    const bool board = role == TocRole::Dtoc || (role == TocRole::Fs3Itoc && (entry->fs3_device_data() || !relative));
    // Board data without a CRC (NV_DATA: 2 x 64 KiB) is neither checked nor rewritten by a
    // burn: reading it would only cost time (seconds over MADs). Whoever needs its bytes
    // ensure()s the range from layout.device_data.
    const bool no_crc = role == TocRole::Fs3Itoc ? entry->fs3_no_crc() : entry->crc_field == 1;
    if (!board || !no_crc) OF_TRY(view.ensure(address, entry->size));
    if (board) {
      layout.device_data.push_back({address, entry->size});
    } else if (relative) {
      layout.length = std::max<std::uint64_t>(layout.length, address + entry->size - base);
    }
  }
  return make_error(ErrorCode::InvalidImage, "TOC at " + hex_string(toc) + " has no END entry");
}

}  // namespace

Result<CopyLayout> load_fs2_copy(FlashView& view, std::uint64_t start) {
  OF_TRY(view.ensure(start, fs2::kBoot2Offset));
  auto header = fs2::read_header(view.bytes().subspan(std::min<std::uint64_t>(start, view.size())));
  if (!header) return make_error(std::move(header).error());
  CopyLayout layout;
  layout.start = start;
  layout.length = header->image_size;
  if (layout.length < fs2::kBoot2Offset || layout.length > view.size())
    return make_error(ErrorCode::InvalidImage, "FS2 image size " + hex_string(layout.length) + " is out of range");
  const std::uint64_t chunk = std::uint64_t{1} << header->log2_chunk;
  const bool striped = header->failsafe && (start == 0 || start == chunk);
  if (header->failsafe) layout.slot_size = chunk;
  if (!striped) {
    OF_TRY(view.ensure(start, layout.length));
    return layout;
  }
  for (std::uint64_t logical = 0; logical < layout.length; logical += chunk) {
    const std::uint64_t n = std::min(chunk, layout.length - logical);
    OF_TRY(view.ensure(fs2::striped_address(logical, start != 0, header->log2_chunk), n));
  }
  return layout;
}

Result<CopyLayout> load_fs3_copy(FlashView& view, std::uint64_t start) {
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
  OF_TRY(load_toc(view, start + offset, start, TocRole::Fs3Itoc, layout));
  return layout;
}

Result<CopyLayout> load_fs4_copy(FlashView& view, std::uint64_t start) {
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
  OF_TRY(load_toc(view, toc, start, TocRole::Fs4Itoc, layout));
  const std::uint64_t dtoc = view.size() - kSector;
  OF_TRY(view.ensure(dtoc, kSector));
  layout.device_data.push_back({dtoc, kSector});
  if (toc_signature_at(view.bytes(), dtoc, TocKind::Dtoc)) {
    CopyLayout board;
    OF_TRY(load_toc(view, dtoc, 0, TocRole::Dtoc, board));
    for (const auto& r : board.device_data) layout.device_data.push_back(r);
  }
  return layout;
}

}  // namespace openflint
