// SectorJournal: power-cut-safe flash writes — sectors that need an erase are staged in scratch sectors first.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"
#include "flash/FlashDriver.h"
#include "fwops/edit/FlashEdit.h"

namespace openflint {

struct SafeWriteReport {
  std::uint64_t sectors_unchanged = 0;  // already held the data
  std::uint64_t sectors_in_place = 0;   // only bits 1 -> 0: programmed without an erase
  std::uint64_t sectors_journaled = 0;  // needed an erase: staged in the scratch sectors first
  std::uint64_t sectors_forced = 0;     // needed an erase, no scratch available, --force given
};

// What a write will do to one erase unit; decided for every sector before anything is written.
struct SectorPlan {
  enum class Action { Unchanged, InPlace, Journaled, Forced };
  std::uint64_t sector = 0;
  std::vector<std::uint8_t> current;  // the sector as it reads now
  std::vector<std::uint8_t> desired;  // the sector after the write
  Action action = Action::Unchanged;
};

// Every sector a write touches, in the order it will be written.
struct SafeWritePlan {
  std::vector<SectorPlan> sectors;
};

// Method (docs/flash-writes.md): the top two erase units of the flash are the scratch area
// (journal sector J = last, copy sector C = the one below). A sector S that needs an erase is
// rewritten as: J <- header(magic, S) ; C <- new contents ; J <- "copied"+CRC32(C) ; erase S ;
// S <- C ; J <- "applied" ; erase C ; erase J. Every step after the first only clears bits of J,
// so a power cut at any point leaves either the old S, or a journal from which
// recover_interrupted_write() finishes the job. The scratch sectors are used only when they
// are blank (or hold our journal), and are never a direct write's target.
// Check, then write: plan_preserving_write() reads every touched sector and refuses the whole
// write (NotSupported, nothing written) when any sector would change inside the scratch area or
// would need an erase with the scratch area unusable — unless `force`, which erases and
// reprograms such sectors in place (unsafe under a power cut, and said so).
// InvalidArgument for an edit past the end of the flash. Recovers an interrupted write first.
[[nodiscard]] Result<SafeWritePlan> plan_preserving_write(FlashDriver& flash, std::span<const FlashEdit> edits,
                                                          bool force);
[[nodiscard]] Result<SafeWriteReport> apply_write_plan(FlashDriver& flash, const SafeWritePlan& plan);
// Both, for one range.
[[nodiscard]] Result<SafeWriteReport> write_preserving(FlashDriver& flash, std::uint64_t address,
                                                       std::span<const std::uint8_t> bytes, bool force);

// The scratch area a direct write (ww, wwne, wb) may not touch without `force`: NotSupported
// naming it when [address, address + size) overlaps it.
[[nodiscard]] Result<void> check_outside_scratch(const FlashDriver& flash, std::uint64_t address, std::uint64_t size,
                                                 bool force);

// Finishes or discards a journaled write a power cut interrupted. Returns true when the
// journal held something (S was restored or the scratch sectors were cleaned). A stop signal
// (core/Interrupt.h) waits for it to finish; apply_write_plan stops between sectors.
[[nodiscard]] Result<bool> recover_interrupted_write(FlashDriver& flash);

}  // namespace openflint
