// CopyLayout: where one image copy and its board data lie in flash, found by reading its tables.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Result.h"
#include "fwops/edit/FlashView.h"

namespace openflint {

struct ByteRange {
  std::uint64_t start = 0;
  std::uint64_t length = 0;
  [[nodiscard]] std::uint64_t end() const { return start + length; }
  [[nodiscard]] bool overlaps(const ByteRange& o) const {
    return length != 0 && o.length != 0 && start < o.end() && o.start < end();
  }
};

struct CopyLayout {
  std::uint64_t start = 0;   // flash address of the copy (its magic)
  std::uint64_t length = 0;  // bytes of the copy proper, from its start (FS2: logical bytes)
  // Board-owned data outside the copy (FS3 device_data sections, FS4 DTOC and its sections):
  // kept on flash by a normal burn.
  std::vector<ByteRange> device_data;
  std::uint64_t slot_size = 0;  // FS2 chunk size / FS3 chunk size from the image; 0 = unknown
};

// How much of a copy to read: every section (what verify and read-image need), or only its
// tables and the sections a query reads (FS3/FS4: IMAGE_INFO, DEV_INFO, MFG_INFO; FS2: the
// image info and GUID sections the header points at). Over MADs the difference is minutes.
enum class CopyScope { Whole, Query };

// Each loads into `view` what verify (Whole) or query (Query) of the copy at `start` read
// (header, BOOT2, TOCs, sections) and returns the layout. InvalidImage when the tables cannot
// be followed.
[[nodiscard]] Result<CopyLayout> load_fs2_copy(FlashView& view, std::uint64_t start, CopyScope scope);
[[nodiscard]] Result<CopyLayout> load_fs3_copy(FlashView& view, std::uint64_t start, CopyScope scope);
[[nodiscard]] Result<CopyLayout> load_fs4_copy(FlashView& view, std::uint64_t start, CopyScope scope);
// Whether an FS2 copy at `layout.start` is striped over the failsafe chunks.
[[nodiscard]] bool fs2_copy_striped(const CopyLayout& layout);

}  // namespace openflint
