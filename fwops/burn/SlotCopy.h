// SlotCopy: finding and invalidating magic-started copies (FS2, FS3, FS4) in their flash slots.
#pragma once

#include <cstdint>
#include <optional>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/burn/FlashSession.h"
#include "image/VerifyReport.h"

namespace openflint {

struct SlotFormat {
  bool (*probe)(Bytes, std::uint64_t);
  Result<ImageQuery> (*query)(Bytes, std::uint64_t);
  Result<VerifyReport> (*verify)(Bytes, std::uint64_t);
  Result<CopyLayout> (*load)(FlashView&, std::uint64_t, CopyScope);
  // Query of a copy of which only the CopyScope::Query bytes are loaded.
  Result<ImageQuery> (*query_loaded)(Bytes flash, const CopyLayout& layout);
  // FS2: verify/query see only the striped chunks of both copies (they de-stripe what they get).
  bool striped_chunks = false;
  // FS3: the new copy's ITOC entries for device data are taken from the running copy.
  bool adopts_device_entries = false;
};

inline constexpr std::uint64_t kMagicSize = 16;

// The boot ROM's choice (image/BootCopy.h: boot_candidates, copy_bootable), read through the
// flash driver, loading only the candidates' headers and the copies' sections.
// CopyScope::Query reads less when that choice is not in doubt: when exactly one candidate
// carries a copy header, that copy is the only one the boot ROM could take, so only its tables
// and query sections are read (a burn then writes the other slot, which is safe whether or not
// the copy verifies). With two headers (e.g. a burn interrupted after the new magic) the
// copies are read whole and verified, as with CopyScope::Whole.
[[nodiscard]] Result<std::optional<CurrentCopy>> find_slot_copy(FlashSession& session, const SlotFormat& format,
                                                                CopyScope scope);
// Zeroes the 16-byte magic at `address` (program-only: bits go 1 -> 0).
[[nodiscard]] Result<void> invalidate_magic(FlashSession& session, std::uint64_t address);

}  // namespace openflint
