// Fs1FlashLayout: which FS1 copies are bootable, by the boot ROM's rule, read through a FlashView.
#include "fwops/burn/Fs1FlashLayout.h"

#include <algorithm>

#include "core/HexString.h"
#include "image/Fs1Image.h"
#include "image/GphSections.h"

namespace openflint {
namespace {

bool walk_clean(const gph::ChainWalk& walk) {
  if (!walk.problems.empty()) return false;
  return std::none_of(walk.checks.begin(), walk.checks.end(), [](const SectionCheck& c) {
    return c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid;
  });
}

Result<Fs1CopyState> read_copy(FlashView& view, std::uint64_t sector, int index) {
  Fs1CopyState c;
  c.ps_at = sector * static_cast<std::uint64_t>(index + 1);
  OF_TRY(view.ensure(c.ps_at, fs1::kPsSize));
  auto ps = fs1::read_pointer_sector(view.bytes(), c.ps_at);
  if (!ps) {
    c.problem = ps.error().message();
    return c;
  }
  std::copy_n(view.bytes().begin() + static_cast<std::ptrdiff_t>(c.ps_at), fs1::kPsSize, c.ps.begin());
  c.image = {ps->fi_addr, ps->fi_size};
  if (!ps->signed_ok()) {
    c.problem = "pointer sector not signed (" + hex_string(ps->signature) + ")";
  } else if (!ps->crc_ok()) {
    c.problem = "pointer sector CRC " + hex_string(ps->stored_crc) + ", computed " + hex_string(ps->computed_crc);
  } else if (ps->fi_addr < 3 * sector || ps->fi_size < fs1::kBoot2Offset || c.image.end() > view.size()) {
    c.problem = "image " + hex_string(ps->fi_addr) + "+" + hex_string(ps->fi_size) + " is outside the flash";
  }
  if (!c.problem.empty()) return c;
  OF_TRY(view.ensure(c.image.start, c.image.length));
  const Bytes image = view.bytes().subspan(c.image.start, c.image.length);
  c.bootable = walk_clean(gph::walk_chain(image, fs1::kBoot2Offset, c.image.start, Crc16{}));
  if (!c.bootable) c.problem = "image at " + hex_string(c.image.start) + " is incomplete or corrupt";
  return c;
}

}  // namespace

const char* fs1_copy_name(int index) { return index == 0 ? "primary" : "secondary"; }

const Fs1CopyState* Fs1FlashLayout::booted() const {
  if (!invariant_ok) return nullptr;
  for (const auto& c : copies)
    if (c.bootable) return &c;
  return nullptr;
}

Result<std::optional<Fs1FlashLayout>> read_fs1_layout(FlashView& view) {
  OF_TRY(view.ensure(0, 0x1000));
  if (!fs1::probe(view.bytes(), 0)) return std::optional<Fs1FlashLayout>{};
  auto log2 = fs1::read_log2_sector_size(view.bytes(), 0);
  if (!log2) return std::optional<Fs1FlashLayout>{};
  Fs1FlashLayout layout;
  layout.sector = std::uint64_t{1} << *log2;
  if (3 * layout.sector >= view.size()) return std::optional<Fs1FlashLayout>{};
  OF_TRY(view.ensure(0, layout.sector));
  layout.invariant_ok =
      gph::verify_boot2(view.bytes(), fs1::kBoot2Offset, 0, "Invariant BOOT2").status == SectionStatus::Ok;
  for (int i = 0; i < 2; ++i) {
    OF_ASSIGN(layout.copies[static_cast<std::size_t>(i)], read_copy(view, layout.sector, i));
  }
  return std::optional<Fs1FlashLayout>(std::move(layout));
}

}  // namespace openflint
