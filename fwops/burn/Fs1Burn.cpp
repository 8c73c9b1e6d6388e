// Fs1Burn: FS1 (InfiniHost) burns — invariant sector kept, one copy at a time, signature last.
#include <algorithm>
#include <optional>
#include <array>
#include <string>
#include <vector>

#include "core/HexString.h"
#include "core/UninterruptibleSection.h"
#include "fwops/burn/Fs1FlashLayout.h"
#include "fwops/burn/FlashFormat.h"
#include "image/Crc16.h"
#include "image/Fs1Image.h"

namespace openflint {
namespace {

constexpr std::uint64_t kSigOffset = 8;  // PS signature dword

struct Fs1Incoming {
  std::uint64_t sector = 0;
  std::array<std::array<std::uint8_t, fs1::kPsSize>, 2> ps{};  // as in the file (signed)
  std::array<ByteRange, 2> copy;
};

Result<Fs1Incoming> read_incoming(Bytes image, std::uint64_t flash_size) {
  if (!fs1::probe(image, 0))
    return make_error(ErrorCode::InvalidImage, "not an FS1 flash image: no invariant sector signature at 0");
  OF_ASSIGN(const unsigned log2, fs1::read_log2_sector_size(image, 0));
  Fs1Incoming in;
  in.sector = std::uint64_t{1} << log2;
  if (image.size() > flash_size)
    return make_error(ErrorCode::InvalidArgument, "FS1 image of " + hex_string(image.size()) +
                                                      " bytes is larger than the flash (" + hex_string(flash_size) + ")");
  for (std::size_t i = 0; i < 2; ++i) {
    const std::string what = std::string("image file ") + fs1_copy_name(static_cast<int>(i)) + " pointer sector";
    OF_ASSIGN_CTX(const fs1::PointerSector ps, fs1::read_pointer_sector(image, in.sector * (i + 1)), what);
    if (!ps.signed_ok() || !ps.crc_ok())
      return make_error(ErrorCode::InvalidImage, what + " is not signed or has a wrong CRC");
    in.copy[i] = {ps.fi_addr, ps.fi_size};
    if (ps.fi_addr < 3 * in.sector || ps.fi_size < fs1::kBoot2Offset || in.copy[i].end() > image.size())
      return make_error(ErrorCode::InvalidImage, what + ": image " + hex_string(ps.fi_addr) + "+" +
                                                     hex_string(ps.fi_size) + " lies outside the file");
    std::copy_n(image.begin() + static_cast<std::ptrdiff_t>(in.sector * (i + 1)), fs1::kPsSize, in.ps[i].begin());
  }
  return in;
}

// The erase units `r` touches: a power cut between erase and program loses all of them.
ByteRange erase_span(const ByteRange& r, std::uint64_t unit) {
  const std::uint64_t start = r.start - r.start % unit;
  const std::uint64_t end = (r.end() + unit - 1) / unit * unit;
  return {start, end - start};
}

bool conflict(const ByteRange& a, const ByteRange& b, std::uint64_t unit) {
  return erase_span(a, unit).overlaps(erase_span(b, unit));
}

Result<void> check_invariant(FlashView& view, Bytes image, std::uint64_t sector) {
  OF_TRY(view.ensure(0, sector));
  const Bytes on_flash = view.bytes().first(sector);
  const auto diff = std::mismatch(on_flash.begin(), on_flash.end(), image.begin());
  if (diff.first == on_flash.end()) return {};
  const auto at = static_cast<std::uint64_t>(diff.first - on_flash.begin());
  return make_error(ErrorCode::Mismatch,
                    "FS1 failsafe burn refused: the invariant sector on flash differs from the image's at " +
                        hex_string(at) + " (flash " + hex_string(*diff.first) + ", image " + hex_string(*diff.second) +
                        "); a failsafe burn never rewrites it — burn with failsafe off to replace it");
}

// Zero the signature, write the image, write the pointer sector unsigned, then sign it. At
// every step this copy's pointer sector is either unsigned or names a complete image.
Result<void> write_copy(FlashSession& s, std::uint64_t ps_at, std::span<const std::uint8_t, fs1::kPsSize> ps,
                        std::uint64_t image_at, Bytes image, const std::string& name) {
  const std::array<std::uint8_t, 4> zero{};
  OF_TRY(s.write(ps_at + kSigOffset, zero, "invalidating the " + name + " pointer sector"));
  OF_TRY(s.write(image_at, image, "writing the " + name + " image"));
  std::array<std::uint8_t, fs1::kPsSize> unsigned_ps{};
  std::copy(ps.begin(), ps.end(), unsigned_ps.begin());
  std::fill_n(unsigned_ps.begin() + kSigOffset, 4, 0xff);
  OF_TRY(s.write(ps_at, unsigned_ps, "writing the " + name + " pointer sector"));
  OF_TRY(s.write(ps_at + kSigOffset, Bytes(ps).subspan(kSigOffset, 4), "signing the " + name + " pointer sector"));
  s.set_new_copy_boots();  // a stop signal from here on leaves this complete copy bootable
  return {};
}

Result<void> burn_new_copy(FlashSession& s, Bytes image, const Fs1Incoming& in, int index) {
  const auto i = static_cast<std::size_t>(index);
  return write_copy(s, in.sector * (i + 1), in.ps[i], in.copy[i].start,
                    image.subspan(in.copy[i].start, in.copy[i].length), std::string("new ") + fs1_copy_name(index));
}

// Copies the bootable copy's image into the other slot (where it cannot touch the good copy)
// and signs a pointer sector for it, so that either copy may be rewritten next.
Result<void> repair(FlashSession& s, Fs1FlashLayout& layout, const Fs1Incoming& in) {
  const Fs1CopyState* good = layout.booted();
  const int bad = good == &layout.copies[0] ? 1 : 0;
  Fs1CopyState& target = layout.copies[static_cast<std::size_t>(bad)];
  if (target.bootable) return {};
  const std::uint64_t unit = s.driver().sector_size();
  const std::uint64_t len = good->image.length;
  const std::uint64_t after_good = (good->image.end() + in.sector - 1) / in.sector * in.sector;
  const std::array<std::uint64_t, 2> candidates{in.copy[static_cast<std::size_t>(bad)].start,
                                                bad == 1 ? after_good : 3 * in.sector};
  const std::uint64_t* dest = nullptr;
  for (const auto& at : candidates)
    if (!dest && at >= 3 * in.sector && at + len <= s.flash().size() && !conflict({at, len}, good->image, unit))
      dest = &at;
  const std::string name = fs1_copy_name(bad);
  if (!dest)
    return make_error(ErrorCode::NotSupported, "FS1: the " + name + " copy is bad (" + target.problem +
                                                   ") and there is no room to repair it without touching the good copy");
  std::vector<std::uint8_t> copy(s.flash().bytes().begin() + static_cast<std::ptrdiff_t>(good->image.start),
                                 s.flash().bytes().begin() + static_cast<std::ptrdiff_t>(good->image.end()));
  std::array<std::uint8_t, fs1::kPsSize> ps = good->ps;
  store_be32(ps.data(), static_cast<std::uint32_t>(*dest));
  store_be32(ps.data() + fs1::kPsCrcOffset, crc16(Bytes(ps).first(fs1::kPsCrcOffset)));
  OF_TRY(write_copy(s, target.ps_at, ps, *dest, copy, "repaired " + name));
  target.ps = ps;
  target.image = {*dest, len};
  target.bootable = true;
  target.problem.clear();
  return {};
}

// Which copy to rewrite first: one whose new image does not touch the other's current image
// (the secondary when the new image is larger), so that the other stays bootable meanwhile.
Result<std::array<int, 2>> burn_order(const Fs1FlashLayout& layout, const Fs1Incoming& in, std::uint64_t unit) {
  if (conflict(in.copy[0], in.copy[1], unit))
    return make_error(ErrorCode::InvalidImage, "FS1 image copies share a flash erase unit");
  if (!conflict(in.copy[0], layout.copies[1].image, unit)) return std::array<int, 2>{0, 1};
  if (!conflict(in.copy[1], layout.copies[0].image, unit)) return std::array<int, 2>{1, 0};
  return make_error(ErrorCode::NotSupported, "FS1: each new copy would overwrite the other current copy");
}

// A copy already holding exactly the new pointer sector and image needs no writes.
Result<bool> copy_is_current(FlashView& view, const Fs1CopyState& c, const Fs1Incoming& in, Bytes image, std::size_t i) {
  if (!c.bootable || c.ps != in.ps[i]) return false;
  OF_TRY(view.ensure(in.copy[i].start, in.copy[i].length));
  const Bytes on_flash = view.bytes().subspan(in.copy[i].start, in.copy[i].length);
  const Bytes wanted = image.subspan(in.copy[i].start, in.copy[i].length);
  return std::equal(on_flash.begin(), on_flash.end(), wanted.begin());
}

Result<void> burn_failsafe(FlashSession& s, Bytes image, const Fs1Incoming& in, Fs1FlashLayout layout) {
  OF_TRY(check_invariant(s.flash(), image, in.sector));
  std::array<bool, 2> done{};
  for (std::size_t i = 0; i < 2; ++i) {
    OF_ASSIGN(done[i], copy_is_current(s.flash(), layout.copies[i], in, image, i));
  }
  OF_TRY(repair(s, layout, in));
  OF_ASSIGN(const auto order, burn_order(layout, in, s.driver().sector_size()));
  for (const int index : order)
    if (!done[static_cast<std::size_t>(index)]) OF_TRY(burn_new_copy(s, image, in, index));
  return {};
}

}  // namespace

Result<std::optional<CurrentCopy>> fs1_find_current(FlashSession& session, CopyScope /*scope: FS1 always reads whole*/) {
  OF_ASSIGN(const auto layout, read_fs1_layout(session.flash()));
  const Fs1CopyState* booted = layout ? layout->booted() : nullptr;
  if (!booted) return std::optional<CurrentCopy>{};
  const Bytes flash = session.flash().bytes();
  Result<ImageQuery> q = make_error(ErrorCode::Internal, "unset");
  if (booted == &layout->copies[0]) {
    q = fs1::query(flash, 0);
  } else {  // fs1::query reports the first signed pointer sector: hide the broken primary
    std::vector<std::uint8_t> view(flash.begin(), flash.end());
    store_be32(view.data() + layout->copies[0].ps_at + kSigOffset, 0);
    q = fs1::query(view, 0);
  }
  if (!q) return std::optional<CurrentCopy>{};
  CopyLayout copy;
  copy.start = booted->image.start;
  copy.length = booted->image.length;
  return std::optional<CurrentCopy>(CurrentCopy{copy, *q});
}

Result<void> fs1_burn(FlashSession& s, Bytes image, const std::optional<CurrentCopy>& current) {
  OF_ASSIGN(const Fs1Incoming in, read_incoming(image, s.flash().size()));
  s.report().new_copy_address = in.copy[0].start;
  if (!s.options().failsafe) {
    std::optional<UninterruptibleSection> in_place;  // over a bootable copy: completes once started
    if (current) in_place.emplace();
    return s.write(0, image, "writing");
  }
  const std::uint64_t unit = s.driver().sector_size();
  if (in.sector < unit)
    return make_error(ErrorCode::NotSupported, "FS1 sector size " + hex_string(in.sector) + " is smaller than the flash erase unit " +
                                                   hex_string(unit) + ": pointer sectors would share an erase block (burn with failsafe off)");
  OF_ASSIGN(const auto layout, read_fs1_layout(s.flash()));
  if (current && layout && layout->booted()) return burn_failsafe(s, image, in, *layout);
  // Nothing bootable to protect (first burn): the invariant sector, then both copies.
  OF_TRY(s.write(0, image.first(in.sector), "writing the invariant sector"));
  for (int i = 0; i < 2; ++i) OF_TRY(burn_new_copy(s, image, in, i));
  return {};
}

}  // namespace openflint
