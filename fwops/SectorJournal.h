// SectorJournal: power-cut-safe flash writes — sectors that need an erase are staged in scratch sectors first.
#pragma once

#include <cstdint>
#include <span>

#include "core/Result.h"
#include "flash/FlashDriver.h"

namespace openflint {

struct SafeWriteReport {
  std::uint64_t sectors_unchanged = 0;  // already held the data
  std::uint64_t sectors_in_place = 0;   // only bits 1 -> 0: programmed without an erase
  std::uint64_t sectors_journaled = 0;  // needed an erase: staged in the scratch sectors first
  std::uint64_t sectors_forced = 0;     // needed an erase, no scratch available, --force given
};

// Method (docs/flash-writes.md): the top two erase units of the flash are the scratch area
// (journal sector J = last, copy sector C = the one below). A sector S that needs an erase is
// rewritten as: J <- header(magic, S) ; C <- new contents ; J <- "copied"+CRC32(C) ; erase S ;
// S <- C ; J <- "applied" ; erase C ; erase J. Every step after the first only clears bits of J,
// so a power cut at any point leaves either the old S, or a journal from which
// recover_interrupted_write() finishes the job. The scratch sectors are used only when they
// are blank (or hold our journal); otherwise the write is refused unless `force`, which erases
// and reprograms S in place (unsafe under a power cut, and said so).
[[nodiscard]] Result<SafeWriteReport> write_preserving(FlashDriver& flash, std::uint64_t address,
                                                       std::span<const std::uint8_t> bytes, bool force);

// Finishes or discards a journaled write a power cut interrupted. Returns true when the
// journal held something (S was restored or the scratch sectors were cleaned).
[[nodiscard]] Result<bool> recover_interrupted_write(FlashDriver& flash);

}  // namespace openflint
