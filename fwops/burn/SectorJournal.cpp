// SectorJournal: the journal states, recovery and the per-sector safe rewrite (see SectorJournal.h).
#include "fwops/burn/SectorJournal.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "core/HexString.h"
#include "core/Interrupt.h"
#include "core/UninterruptibleSection.h"
#include "image/Crc32.h"

namespace openflint {
namespace {

constexpr std::array<std::uint8_t, 8> kMagic{'O', 'F', 'J', 'R', 'N', 'L', '0', '1'};
constexpr std::uint32_t kCopiedOffset = 16;   // dword 0 when the copy is complete, then CRC32
constexpr std::uint32_t kAppliedOffset = 24;  // dword 0 when S holds the new contents
constexpr std::uint32_t kPageSize = 256;

constexpr std::uint32_t kHeaderBytes = 32;   // magic, target, copied + CRC, applied
// NoJournal: the header holds no journal of ours (blank or foreign: only the header was read).
enum class JournalState { Blank, Foreign, NoJournal, Claimed, Copied, Applied };

struct Journal {
  JournalState state = JournalState::Blank;
  std::uint64_t target = 0;
  std::uint32_t crc = 0;
};

std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

void put_be32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

bool all_erased(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0xff; });
}

std::uint64_t journal_sector(const FlashDriver& flash) { return flash.size() - flash.sector_size(); }
std::uint64_t copy_sector(const FlashDriver& flash) { return flash.size() - 2ull * flash.sector_size(); }

// The journal sector's state; only its header unless `whole` (Blank vs Foreign needs the whole
// sector, recovery only the header: over a costly transport 4 KiB is ~250 gateway reads, on
// every open of a device's flash).
Result<Journal> read_journal(FlashDriver& flash, bool whole) {
  const std::uint64_t size = whole ? flash.sector_size() : std::min<std::uint64_t>(kHeaderBytes, flash.sector_size());
  OF_ASSIGN(std::vector<std::uint8_t> j, flash.read(journal_sector(flash), size));
  Journal journal;
  if (!std::equal(kMagic.begin(), kMagic.end(), j.begin())) {
    if (!whole) journal.state = JournalState::NoJournal;
    else journal.state = all_erased(j) ? JournalState::Blank : JournalState::Foreign;
    return journal;
  }
  journal.target = be32(&j[8]);
  journal.crc = be32(&j[kCopiedOffset + 4]);
  if (be32(&j[kAppliedOffset]) == 0) {
    journal.state = JournalState::Applied;
  } else if (be32(&j[kCopiedOffset]) == 0) {
    journal.state = JournalState::Copied;
  } else {
    journal.state = JournalState::Claimed;
  }
  return journal;
}

Result<void> program_dword(FlashDriver& flash, std::uint64_t address, std::uint32_t value) {
  std::array<std::uint8_t, 4> b{};
  put_be32(b.data(), value);
  return flash.program(address, b);
}

// Programs `desired` over a sector that holds `base` (bits may only go 1 -> 0), skipping
// pages that already match, then reads back.
Result<void> program_sector(FlashDriver& flash, std::uint64_t address, std::span<const std::uint8_t> base,
                            std::span<const std::uint8_t> desired) {
  for (std::size_t page = 0; page < desired.size(); page += kPageSize) {
    const std::size_t end = std::min<std::size_t>(page + kPageSize, desired.size());
    if (std::equal(desired.begin() + page, desired.begin() + end, base.begin() + page)) continue;
    OF_TRY(flash.program(address + page, desired.subspan(page, end - page)));
  }
  OF_ASSIGN(std::vector<std::uint8_t> back, flash.read(address, desired.size()));
  if (!std::equal(back.begin(), back.end(), desired.begin())) {
    const auto at = std::mismatch(back.begin(), back.end(), desired.begin()).first - back.begin();
    return make_error(ErrorCode::Mismatch, "verify after write failed at " +
                                               hex_string(address + static_cast<std::uint64_t>(at)));
  }
  return {};
}

Result<void> erase_and_program(FlashDriver& flash, std::uint64_t address, std::span<const std::uint8_t> desired) {
  OF_TRY(flash.erase_sector(address));
  const std::vector<std::uint8_t> blank(desired.size(), 0xff);
  return program_sector(flash, address, blank, desired);
}

Result<void> clean_scratch(FlashDriver& flash) {
  OF_TRY(flash.erase_sector(copy_sector(flash)));
  return flash.erase_sector(journal_sector(flash));  // last: the journal claims the copy sector
}

bool needs_erase(std::span<const std::uint8_t> current, std::span<const std::uint8_t> desired) {
  for (std::size_t i = 0; i < desired.size(); ++i) {
    if ((desired[i] & ~current[i]) != 0) return true;  // a bit would have to go 0 -> 1
  }
  return false;
}

Result<bool> scratch_available(FlashDriver& flash) {
  OF_ASSIGN(Journal journal, read_journal(flash, true));
  if (journal.state != JournalState::Blank) return false;
  OF_ASSIGN(std::vector<std::uint8_t> copy, flash.read(copy_sector(flash), flash.sector_size()));
  return all_erased(copy);
}

Result<void> journaled_rewrite(FlashDriver& flash, std::uint64_t sector, std::span<const std::uint8_t> desired) {
  const std::uint64_t j = journal_sector(flash);
  std::array<std::uint8_t, 16> header{};
  std::copy(kMagic.begin(), kMagic.end(), header.begin());
  put_be32(&header[8], static_cast<std::uint32_t>(sector));
  put_be32(&header[12], 0xffffffff);
  OF_TRY(flash.program(j, header));
  const std::vector<std::uint8_t> blank(desired.size(), 0xff);
  OF_TRY(program_sector(flash, copy_sector(flash), blank, desired));
  std::array<std::uint8_t, 8> copied{};
  put_be32(&copied[4], crc32(Bytes(desired.data(), desired.size())));
  OF_TRY(flash.program(j + kCopiedOffset, copied));
  OF_TRY(erase_and_program(flash, sector, desired));
  OF_TRY(program_dword(flash, j + kAppliedOffset, 0));
  return clean_scratch(flash);
}

std::string scratch_text(const FlashDriver& flash) {
  return "the scratch sectors at " + hex_string(copy_sector(flash)) + " (top two erase units of the flash)";
}

std::string force_text() { return "; --force erases and rewrites it in place (a power cut then leaves it erased)"; }

// Decides one sector's action; NotSupported when it may not be written without `force`.
Result<SectorPlan::Action> plan_sector(const FlashDriver& flash, const SectorPlan& plan, bool scratch_ok, bool force) {
  using Action = SectorPlan::Action;
  if (plan.current == plan.desired) return Action::Unchanged;
  // EEPROMs replace bytes in place (FlashChip::erase_before_program): never an erase to journal.
  const bool erase = flash.chip().erase_before_program() && needs_erase(plan.current, plan.desired);
  if (plan.sector >= copy_sector(flash)) {  // documented: never a direct write's target
    if (!force)
      return make_error(ErrorCode::NotSupported, "sector " + hex_string(plan.sector) + " is one of " +
                                                     scratch_text(flash) +
                                                     " that power-cut-safe writes journal through" + force_text());
    return erase ? Action::Forced : Action::InPlace;
  }
  if (!erase) return Action::InPlace;
  if (scratch_ok) return Action::Journaled;
  if (!force)
    return make_error(ErrorCode::NotSupported, "sector " + hex_string(plan.sector) +
                                                   " needs an erase and cannot be rewritten power-cut safely: " +
                                                   scratch_text(flash) + " are not blank" + force_text());
  return Action::Forced;
}

}  // namespace

Result<bool> recover_interrupted_write(FlashDriver& flash) {
  const UninterruptibleSection finish_it;  // a stop signal waits until the scratch area is clean
  OF_ASSIGN(Journal journal, read_journal(flash, false));
  switch (journal.state) {
    case JournalState::Blank:
    case JournalState::Foreign:
    case JournalState::NoJournal: return false;
    case JournalState::Claimed:
    case JournalState::Applied: break;
    case JournalState::Copied: {
      OF_ASSIGN(std::vector<std::uint8_t> copy, flash.read(copy_sector(flash), flash.sector_size()));
      const bool target_ok = journal.target % flash.sector_size() == 0 && journal.target < copy_sector(flash);
      // A copy whose CRC does not match never completed: S was not touched yet, discard it.
      if (target_ok && crc32(Bytes(copy.data(), copy.size())) == journal.crc) {
        OF_TRY(erase_and_program(flash, journal.target, copy));
        OF_TRY(program_dword(flash, journal_sector(flash) + kAppliedOffset, 0));
      }
      break;
    }
  }
  OF_TRY(clean_scratch(flash));
  return true;
}

Result<void> check_outside_scratch(const FlashDriver& flash, std::uint64_t address, std::uint64_t size,
                                   bool force) {
  if (force || size == 0 || address + size <= copy_sector(flash)) return {};
  return make_error(ErrorCode::NotSupported, "the write at " + hex_string(address) + " reaches into " +
                                                 scratch_text(flash) +
                                                 " that power-cut-safe writes journal through; --force writes there anyway");
}

Result<SafeWritePlan> plan_preserving_write(FlashDriver& flash, std::span<const FlashEdit> edits, bool force) {
  for (const FlashEdit& e : edits) {
    if (e.end() > flash.size() || e.end() < e.address)
      return make_error(ErrorCode::InvalidArgument, "write of " + std::to_string(e.bytes.size()) + " bytes at " +
                                                        hex_string(e.address) + " passes the end of the " +
                                                        hex_string(flash.size()) + "-byte flash");
  }
  if (auto recovered = recover_interrupted_write(flash); !recovered) return make_error(std::move(recovered).error());
  const std::uint64_t unit = flash.sector_size();
  SafeWritePlan plan;
  const auto sector_plan = [&](std::uint64_t sector) -> Result<SectorPlan*> {
    for (auto& p : plan.sectors)
      if (p.sector == sector) return &p;
    SectorPlan p;
    p.sector = sector;
    OF_ASSIGN(p.current, flash.read(sector, unit));
    p.desired = p.current;
    plan.sectors.push_back(std::move(p));
    return &plan.sectors.back();
  };
  for (const FlashEdit& e : edits) {
    for (std::uint64_t sector = e.address - e.address % unit; sector < e.end(); sector += unit) {
      OF_ASSIGN(SectorPlan* p, sector_plan(sector));
      const std::uint64_t from = std::max(sector, e.address);
      const std::uint64_t to = std::min(sector + unit, e.end());
      std::copy(e.bytes.begin() + static_cast<std::ptrdiff_t>(from - e.address),
                e.bytes.begin() + static_cast<std::ptrdiff_t>(to - e.address),
                p->desired.begin() + static_cast<std::ptrdiff_t>(from - sector));
    }
  }
  // A forced write into the scratch area makes it unusable for the journaled sectors after it.
  bool scratch_ok = false;
  OF_ASSIGN(scratch_ok, scratch_available(flash));
  for (const auto& p : plan.sectors)
    if (p.sector >= copy_sector(flash) && p.current != p.desired) scratch_ok = false;
  for (auto& p : plan.sectors) {
    OF_ASSIGN_CTX(p.action, plan_sector(flash, p, scratch_ok, force), "writing sector " + hex_string(p.sector));
  }
  return plan;
}

Result<SafeWriteReport> apply_write_plan(FlashDriver& flash, const SafeWritePlan& plan) {
  using Action = SectorPlan::Action;
  SafeWriteReport report;
  for (const SectorPlan& p : plan.sectors) {
    // A stop signal ends the write between sectors (core/Interrupt.h); a sector's journaled
    // steps run to the end, so the scratch area is blank again when the tool stops.
    if (p.action != Action::Unchanged) OF_TRY(check_interrupted());
    const UninterruptibleSection whole_sector;
    Result<void> r;
    switch (p.action) {
      case Action::Unchanged: ++report.sectors_unchanged; break;
      case Action::InPlace:
        ++report.sectors_in_place;
        r = program_sector(flash, p.sector, p.current, p.desired);
        break;
      case Action::Journaled:
        ++report.sectors_journaled;
        r = journaled_rewrite(flash, p.sector, p.desired);
        break;
      case Action::Forced:
        ++report.sectors_forced;
        r = erase_and_program(flash, p.sector, p.desired);
        break;
    }
    if (!r) return make_error(std::move(r).error().with_context("writing sector " + hex_string(p.sector)));
  }
  return report;
}

Result<SafeWriteReport> write_preserving(FlashDriver& flash, std::uint64_t address, std::span<const std::uint8_t> bytes,
                                         bool force) {
  const FlashEdit edit{address, std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
  OF_ASSIGN(const SafeWritePlan plan, plan_preserving_write(flash, std::span<const FlashEdit>(&edit, 1), force));
  return apply_write_plan(flash, plan);
}

}  // namespace openflint
