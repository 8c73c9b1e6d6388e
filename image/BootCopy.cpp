// BootCopy: FS1 pointer-sector selection and the FS2-FS4 "magic + verify" candidate scan.
#include "image/BootCopy.h"

#include <algorithm>

#include "image/Fs1Image.h"
#include "image/Fs1PointerSector.h"
#include "image/FormatTable.h"
#include "image/Fs2Header.h"
#include "image/Fs2Image.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"
#include "image/GphSections.h"

namespace openflint {
namespace {

bool walk_clean(const gph::ChainWalk& walk) {
  if (!walk.problems.empty()) return false;
  for (const auto& c : walk.checks)
    if (c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid) return false;
  return true;
}

// FS1: the image a pointer sector names, when the sector is signed, CRC-correct and the image
// (BOOT2 + section chain) is complete.
std::optional<std::uint64_t> fs1_copy(Bytes flash, std::uint64_t sector, int index) {
  auto ps = fs1::read_pointer_sector(flash, sector * static_cast<std::uint64_t>(index + 1));
  if (!ps || !ps->signed_ok() || !ps->crc_ok()) return std::nullopt;
  if (ps->fi_addr < 3 * sector || ps->fi_size < fs1::kBoot2Offset ||
      std::uint64_t{ps->fi_addr} + ps->fi_size > flash.size())
    return std::nullopt;
  const Bytes image = flash.subspan(ps->fi_addr, ps->fi_size);
  if (!walk_clean(gph::walk_chain(image, fs1::kBoot2Offset, ps->fi_addr, Crc16{}))) return std::nullopt;
  return ps->fi_addr;
}

struct Fs1Boot {
  std::uint64_t image = 0;
  int index = 0;
};

std::optional<Fs1Boot> fs1_boot(Bytes flash) {
  if (!fs1::probe(flash, 0)) return std::nullopt;
  auto log2 = fs1::read_log2_sector_size(flash, 0);
  if (!log2) return std::nullopt;
  if (gph::verify_boot2(flash, fs1::kBoot2Offset, 0, "Invariant BOOT2").status != SectionStatus::Ok)
    return std::nullopt;
  const std::uint64_t sector = std::uint64_t{1} << *log2;
  for (int i = 0; i < 2; ++i)
    if (auto at = fs1_copy(flash, sector, i)) return Fs1Boot{*at, i};
  return std::nullopt;
}

std::optional<BootCopy> fs1_boot_copy(Bytes flash) {
  const auto boot = fs1_boot(flash);
  if (!boot) return std::nullopt;
  // fs1::query reports the first signed pointer sector; when the secondary boots, query a
  // view whose primary signature is cleared so it reports the copy that runs.
  Result<ImageQuery> q = make_error(ErrorCode::Internal, "unset");
  if (boot->index == 0) {
    q = fs1::query(flash, 0);
  } else {
    auto log2 = fs1::read_log2_sector_size(flash, 0);
    std::vector<std::uint8_t> view(flash.begin(), flash.end());
    store_be32(view.data() + (std::size_t{1} << *log2) + 8, 0);
    q = fs1::query(view, 0);
  }
  if (!q) return std::nullopt;
  return BootCopy{ImageFormat::Fs1, boot->image, 0, *q};
}

}  // namespace

std::vector<std::uint64_t> boot_candidates(std::optional<std::uint64_t> boot_address, std::uint64_t flash_size) {
  std::vector<std::uint64_t> out;
  const auto add = [&](std::uint64_t at) {  // the register may repeat a fixed candidate
    if (at < flash_size && std::find(out.begin(), out.end(), at) == out.end()) out.push_back(at);
  };
  if (boot_address) add(*boot_address);
  add(0);
  for (std::uint64_t at = 0x10000; at <= flash_size / 2; at *= 2) add(at);
  return out;
}

Bytes copy_view(ImageFormat format, Bytes flash, std::uint64_t start) {
  if (format != ImageFormat::Fs2 || start >= flash.size()) return flash;
  auto header = fs2::read_header(flash.subspan(start));
  if (!header || !header->failsafe) return flash;
  const std::uint64_t chunk = std::uint64_t{1} << header->log2_chunk;
  const std::uint64_t chunks = (std::uint64_t{header->image_size} + chunk - 1) / chunk;
  return flash.first(std::min<std::uint64_t>(flash.size(), std::max(2 * chunks * chunk, start + chunk)));
}

Result<VerifyReport> verify_copy(ImageFormat format, Bytes flash, std::uint64_t start) {
  if (format == ImageFormat::Fs1) return fs1::verify(flash, 0);
  return format_ops(format).verify(copy_view(format, flash, start), start);
}

bool copy_bootable(ImageFormat format, Bytes flash, std::uint64_t start) {
  if (format == ImageFormat::Fs1) return start == 0 && fs1_boot(flash).has_value();
  const FormatOps& rules = format_ops(format);
  if (start >= flash.size() || !rules.probe(flash, start)) return false;
  const Bytes view = copy_view(format, flash, start);
  auto report = rules.verify(view, start);
  return report && report->bootable() && rules.query(view, start).has_value();
}

std::optional<BootCopy> find_boot_copy(ImageFormat format, Bytes flash, std::optional<std::uint64_t> boot_address) {
  if (format == ImageFormat::Fs1) return fs1_boot_copy(flash);
  const FormatOps& rules = format_ops(format);
  for (const std::uint64_t at : boot_candidates(boot_address, flash.size())) {
    if (!copy_bootable(format, flash, at)) continue;
    return BootCopy{format, at, at, *rules.query(copy_view(format, flash, at), at)};
  }
  return std::nullopt;
}

}  // namespace openflint
