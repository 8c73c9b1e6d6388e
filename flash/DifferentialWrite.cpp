// DifferentialWrite: FlashDriver::write_sectors_that_differ — touch only what must change.
//
// Per erase unit ("sector") overlapped by the write, with [from, to) the part being written:
//   1. On a costly_access() transport, read the first 16 bytes of the range (one gateway transaction).
//      When they need a bit to go 0 -> 1, or the whole sector is written and they differ, the
//      sector is erased without reading the range: over MADs an erase is a handful of round
//      trips and reading 4 KiB is 512 (the probe's price when it errs: one needless erase).
//   2. Otherwise read the range. Equal: nothing to do. Only 1 -> 0 changes: program the bytes
//      that differ in place, then read back and verify the range.
//   3. Erase path: read the rest of the sector (whatever lies outside the range is kept),
//      erase, program the non-0xFF bytes, read back and verify the whole sector.
// A stop signal (core/Interrupt.h) ends the write between sectors, never inside one: a sector is
// either as it was or written and verified.
#include <algorithm>

#include "core/Interrupt.h"
#include "core/UninterruptibleSection.h"
#include "flash/FlashDriver.h"

namespace openflint {
namespace {

constexpr std::size_t kProbeBytes = 16;
constexpr std::size_t kPageSize = 256;

bool needs_erase(std::span<const std::uint8_t> current, std::span<const std::uint8_t> desired) {
  for (std::size_t i = 0; i < desired.size(); ++i)
    if ((desired[i] & ~current[i]) != 0) return true;  // a bit would have to go 0 -> 1
  return false;
}

}  // namespace

struct FlashDriver::SectorWrite {
  std::uint32_t sector = 0;              // flash address of the erase unit
  std::uint32_t from = 0;                // offset of the written range inside it
  std::span<const std::uint8_t> bytes;   // the range's new contents
  std::uint32_t unit = 0;                // erase unit size
  WriteCheck check = WriteCheck::ReadBack;
  [[nodiscard]] bool whole() const { return from == 0 && bytes.size() == unit; }
};

// Programs, page by page, the bytes where `desired` differs from `base` (the flash contents).
Result<void> FlashDriver::program_differences(std::uint32_t address, std::span<const std::uint8_t> base,
                                              std::span<const std::uint8_t> desired, FlashWriteStats& stats) {
  std::size_t page = 0;
  while (page < desired.size()) {
    const std::size_t end = std::min(desired.size(), (((address + page) / kPageSize) + 1) * kPageSize - address);
    std::size_t first = page;
    while (first < end && desired[first] == base[first]) ++first;
    if (first < end) {
      std::size_t last = end;
      while (desired[last - 1] == base[last - 1]) --last;
      OF_TRY(bus_->program(address + static_cast<std::uint32_t>(first), desired.subspan(first, last - first)));
      ++stats.pages_programmed;
      stats.bytes_programmed += last - first;
    }
    page = end;
  }
  return {};
}

// The erase path: `current` holds the range as read (or nothing useful when it was not read).
Result<void> FlashDriver::rewrite_sector(const SectorWrite& w, std::span<std::uint8_t> current,
                                         FlashWriteStats& stats) {
  const std::size_t to = w.from + w.bytes.size();
  if (w.from > 0) OF_TRY(read_into(w.sector, current.first(w.from)));
  if (to < w.unit) OF_TRY(read_into(w.sector + static_cast<std::uint32_t>(to), current.subspan(to)));
  std::vector<std::uint8_t> desired(current.begin(), current.end());
  std::copy(w.bytes.begin(), w.bytes.end(), desired.begin() + w.from);
  OF_TRY(erase_sector(w.sector));
  ++stats.sectors_erased;
  const std::vector<std::uint8_t> erased(w.unit, 0xff);
  OF_TRY(program_differences(w.sector, erased, desired, stats));
  if (w.check == WriteCheck::None) return {};
  return verify(w.sector, desired);
}

Result<void> FlashDriver::write_sector(const SectorWrite& w, FlashWriteStats& stats) {
  std::vector<std::uint8_t> current(w.unit, 0xff);
  const auto range = std::span(current).subspan(w.from, w.bytes.size());
  const std::uint32_t at = w.sector + w.from;
  std::size_t have = 0;  // bytes of the range read so far
  if (!chip().erase_before_program()) {  // EEPROM: write what differs in place, never erase
    OF_TRY(read_into(at, range));
    if (std::equal(w.bytes.begin(), w.bytes.end(), range.begin())) {
      ++stats.sectors_unchanged;
      return {};
    }
    ++stats.sectors_program_only;
    OF_TRY(program_differences(at, range, w.bytes, stats));
    if (w.check == WriteCheck::None) return {};
    return verify(at, w.bytes);
  }
  if (costly_reads()) {
    have = std::min(kProbeBytes, range.size());
    OF_TRY(read_into(at, range.first(have)));
    const auto head = w.bytes.first(have);
    const bool head_differs = !std::equal(head.begin(), head.end(), range.begin());
    if (needs_erase(range.first(have), head) || (w.whole() && head_differs)) {
      ++stats.sectors_probed;
      return rewrite_sector(w, current, stats);
    }
  }
  if (have < range.size()) OF_TRY(read_into(at + static_cast<std::uint32_t>(have), range.subspan(have)));
  if (std::equal(w.bytes.begin(), w.bytes.end(), range.begin())) {
    ++stats.sectors_unchanged;
    return {};
  }
  if (needs_erase(range, w.bytes)) return rewrite_sector(w, current, stats);
  ++stats.sectors_program_only;  // bits only go 1 -> 0: program in place, nothing else moves
  OF_TRY(program_differences(at, range, w.bytes, stats));
  if (w.check == WriteCheck::None) return {};
  return verify(at, w.bytes);
}

Result<FlashWriteStats> FlashDriver::write_sectors_that_differ(std::uint64_t address,
                                                                std::span<const std::uint8_t> bytes,
                                                                const FlashProgress& progress, WriteCheck check) {
  OF_TRY(check_range(address, bytes.size()));
  const std::uint64_t unit = sector_size();
  const std::uint64_t end = address + bytes.size();
  FlashWriteStats stats;
  for (std::uint64_t sector = address - address % unit; sector < end; sector += unit) {
    ++stats.sectors_total;
    const std::uint64_t from = std::max(sector, address);
    const std::uint64_t to = std::min(sector + unit, end);
    const SectorWrite w{static_cast<std::uint32_t>(sector), static_cast<std::uint32_t>(from - sector),
                        bytes.subspan(static_cast<std::size_t>(from - address), static_cast<std::size_t>(to - from)),
                        static_cast<std::uint32_t>(unit), check};
    OF_TRY(check_interrupted());  // the safe point: between sectors
    {
      const UninterruptibleSection whole_sector;
      OF_TRY(write_sector(w, stats));
    }
    if (progress) progress(to - address, bytes.size());
  }
  return stats;
}

}  // namespace openflint
