// MfaWriter: builds MFA v1 ("MFAR") archives from per-board firmware images.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint {

// One board of an archive to write: its PSID, MAP metadata and firmware image.
struct MfaBoardSpec {
  std::string psid;         // at most 31 characters (stored NUL-terminated in 32 bytes)
  std::string part_number;  // MAP metadata "PN"
  std::string description;  // MAP metadata "DESCRIPTION"
  FwVersion version;        // TOC entry version fields (major.minor.subminor)
  std::vector<std::uint8_t> image;
};

struct MfaWriteOptions {
  std::uint32_t xz_preset = 6;  // 0..9; the dictionary is capped at the data size
  bool compress = true;         // xz-compress MAP, TOC and DATA (section flag bit0)
};

// Collects boards in order and lays them out like the vendor archives: one MAP entry and
// one TOC entry per board, one firmware image each (image_type 1, group 1, empty select tag),
// images concatenated in DATA in board order. Everything is held in memory.
class MfaWriter {
 public:
  explicit MfaWriter(MfaWriteOptions options = {}) : options_(options) {}

  // Checks the board's fields fit the format (PSID length, metadata size, offsets).
  [[nodiscard]] Result<void> add_board(MfaBoardSpec board);
  [[nodiscard]] Result<std::vector<std::uint8_t>> build() const;
  // build(), written to `path` (a plain write, not atomic).
  [[nodiscard]] Result<void> write_file(const std::string& path) const;

 private:
  [[nodiscard]] std::vector<std::uint8_t> map_table() const;
  [[nodiscard]] std::vector<std::uint8_t> toc_table() const;
  MfaWriteOptions options_;
  std::vector<MfaBoardSpec> boards_;
  std::uint64_t data_size_ = 0;
};

}  // namespace openflint
