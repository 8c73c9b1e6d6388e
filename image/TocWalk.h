// TocWalk: walks the entries of an ITOC/DTOC, checking section CRCs the way mstflint verify does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "image/Toc.h"
#include "image/VerifyReport.h"

namespace openflint {

enum class TocAddressing {
  PerEntryBit,  // FS3: relative_addr bit decides (relative = from the image start)
  Relative,     // FS4 ITOC: every address counts from the image start
  Absolute,     // FS4 DTOC: flash addresses
};

struct TocWalkConfig {
  TocKind kind = TocKind::Itoc;
  bool fs4 = false;  // FS4 CRC modes and DEV_INFO signatures; else FS3 no_crc bit
  TocAddressing addressing = TocAddressing::PerEntryBit;
  std::uint64_t image_start = 0;
  // Which section types get their data CRC-checked (null = all): query checks only the few
  // sections it reads, verify checks everything.
  bool (*wants)(std::uint8_t type) = nullptr;
};

struct TocSection {
  TocEntry entry;
  std::uint64_t entry_offset = 0;
  std::uint64_t address = 0;  // absolute offset in the buffer (what verify prints)
  Bytes data;                 // empty when the section lies outside the buffer
  bool checked = false;       // a verify line was produced for it
  SectionStatus status = SectionStatus::Ok;
  bool valid_dev_info = false;  // FS4: DEV_INFO carrying its signature
};

struct TocWalk {
  std::vector<TocSection> sections;  // every entry before END (or before the walk stopped)
  std::vector<SectionCheck> checks;  // verify lines, in order
  std::vector<std::string> problems;

  // The first section of `type` whose data is in range and whose CRC checked out.
  [[nodiscard]] const TocSection* find_good(std::uint8_t type) const;
  [[nodiscard]] bool has_type(std::uint8_t type) const;
};

// Moves the walk's verify lines into `report` and copies its problems there.
void append_to(TocWalk& walk, VerifyReport& report);

// FS4: the DEV_INFO slot the board uses, the first one in TOC order carrying the signature
// (two are signed only after a power cut inside a DEV_INFO edit); nullptr when none is.
[[nodiscard]] const TocSection* live_dev_info(const TocWalk& walk);

// Walks the entries after the header at `toc_offset` until the END entry; stops (with a
// problem) at an entry whose own CRC is wrong, at the end of the buffer, or after 63 entries.
[[nodiscard]] TocWalk walk_toc(Bytes data, std::uint64_t toc_offset, const TocWalkConfig& config);

// A verify line for a region whose CRC was computed (`computed`) and found in the image
// (`stored`); `ignored` gives CRC IGNORED. A mismatch's detail reads "expected <computed>,
// found <stored>" (mstflint's "exp:<computed>, act:<stored>").
[[nodiscard]] SectionCheck make_crc_check(std::string name, std::uint64_t start, std::uint64_t size,
                                          std::uint32_t stored, std::uint32_t computed,
                                          bool ignored = false);

// Checks the BOOT2 block at `offset` ({?, N, N dwords, spare, CRC}); its verify line shows
// `printed_start`. Returns the BOOT2 size in bytes, or nullopt when the size is implausible
// or the block is out of range (a problem is recorded).
[[nodiscard]] std::optional<std::uint64_t> check_boot2(Bytes data, std::uint64_t offset,
                                                       std::uint64_t printed_start,
                                                       VerifyReport& report);

}  // namespace openflint
