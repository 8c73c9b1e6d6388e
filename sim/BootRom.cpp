// BootRom: the simulated boot ROM's copy selection (FS1 pointer sectors, FS2-FS4 boot address + scan).
#include "sim/BootRom.h"

#include <algorithm>
#include <array>
#include <vector>

#include "image/Fs1Image.h"
#include "image/Fs1PointerSector.h"
#include "image/Fs2Header.h"
#include "image/Fs2Image.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"
#include "image/GphSections.h"

namespace openflint::sim {
namespace {

// One format's copy checks; FS2-FS4 share the generic "magic + verify" rule.
struct FormatRules {
  ImageFormatId format;
  bool (*probe)(Bytes, std::uint64_t);
  Result<ImageQuery> (*query)(Bytes, std::uint64_t);
  Result<VerifyReport> (*verify)(Bytes, std::uint64_t);
};

constexpr std::array<FormatRules, 3> kRules{{
    {ImageFormatId::Fs2, fs2::probe, fs2::query, fs2::verify},
    {ImageFormatId::Fs3, fs3::probe, fs3::query, fs3::verify},
    {ImageFormatId::Fs4, fs4::probe, fs4::query, fs4::verify},
}};

const FormatRules* rules_for(ImageFormatId format) {
  for (const auto& r : kRules)
    if (r.format == format) return &r;
  return nullptr;
}

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

BootState boot_fs1(const DeviceInfo& info, Bytes flash) {
  BootState state;
  state.pci_device_id = info.pci_recovery_id;
  const auto boot = fs1_boot(flash);
  if (!boot) return state;
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
  if (!q) return state;
  state.recovery = false;
  state.booted_address = boot->image;
  state.running = *q;
  state.pci_device_id = info.pci_device_id;
  return state;
}

// FS2 verify de-stripes everything it is given: hand it only the chunks both copies can use.
Bytes fs2_span(Bytes flash, std::uint64_t offset) {
  auto header = fs2::read_header(flash.subspan(offset));
  if (!header || !header->failsafe) return flash;
  const std::uint64_t chunk = std::uint64_t{1} << header->log2_chunk;
  const std::uint64_t chunks = (std::uint64_t{header->image_size} + chunk - 1) / chunk;
  return flash.first(std::min<std::uint64_t>(flash.size(), std::max(2 * chunks * chunk, offset + chunk)));
}

bool generic_bootable(const FormatRules& rules, Bytes flash, std::uint64_t offset) {
  if (offset >= flash.size() || !rules.probe(flash, offset)) return false;
  if (rules.format == ImageFormatId::Fs2) flash = fs2_span(flash, offset);
  auto report = rules.verify(flash, offset);
  return report && report->bootable() && rules.query(flash, offset).has_value();
}

}  // namespace

bool copy_is_bootable(ImageFormatId format, Bytes flash, std::uint64_t offset) {
  if (format == ImageFormatId::Fs1) return offset == 0 && fs1_boot(flash).has_value();
  const FormatRules* rules = rules_for(format);
  return rules != nullptr && generic_bootable(*rules, flash, offset);
}

BootState run_boot_rom(const DeviceInfo& info, Bytes flash, std::optional<std::uint64_t> boot_address) {
  if (info.image_format == ImageFormatId::Fs1) return boot_fs1(info, flash);
  BootState state;
  state.pci_device_id = info.pci_recovery_id;
  const FormatRules* rules = rules_for(info.image_format);
  if (rules == nullptr) return state;
  std::vector<std::uint64_t> candidates;
  if (boot_address) candidates.push_back(*boot_address);
  candidates.push_back(0);
  for (std::uint64_t at = 0x10000; at <= flash.size() / 2; at *= 2) candidates.push_back(at);
  for (const std::uint64_t at : candidates) {
    if (!generic_bootable(*rules, flash, at)) continue;
    state.recovery = false;
    state.booted_address = at;
    state.running = *rules->query(rules->format == ImageFormatId::Fs2 ? fs2_span(flash, at) : flash, at);
    state.pci_device_id = info.pci_device_id;
    return state;
  }
  return state;
}

}  // namespace openflint::sim
