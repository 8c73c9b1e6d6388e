// BootCopy: the copy a device's boot ROM starts from its flash — the one rule the simulator's
// boot ROM, the burner's current-copy search and flint's device query/verify all use.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageFormat.h"
#include "image/ImageQuery.h"
#include "image/VerifyReport.h"

namespace openflint {

struct BootCopy {
  ImageFormat format = ImageFormat::Fs3;
  std::uint64_t start = 0;   // the copy's flash address (FS1: the image a pointer sector names)
  std::uint64_t layout = 0;  // where query/verify of this copy start (FS1: 0, the invariant sector)
  ImageQuery query;          // the booted copy's query (FS1: the pointer sector that boots)
};

// Where the boot ROM looks for a copy, in its order: the boot-address register (when the
// device has one), 0, then every power of two from 64 KiB to half the flash.
[[nodiscard]] std::vector<std::uint64_t> boot_candidates(std::optional<std::uint64_t> boot_address,
                                                         std::uint64_t flash_size);

// The part of `flash` the format's query/verify of the copy at `start` may see: FS2 verify
// de-stripes everything it is given, so only the chunks both failsafe copies use.
[[nodiscard]] Bytes copy_view(ImageFormat format, Bytes flash, std::uint64_t start);

// Verify of the copy at `start` (FS1: of the flash layout at 0).
[[nodiscard]] Result<VerifyReport> verify_copy(ImageFormat format, Bytes flash, std::uint64_t start);

// Bootable = the format's magic at `start`, every section verifies (verify also requires the
// sections the boot needs to parse, e.g. IMAGE_INFO) and the copy queries. FS1: `start` is 0
// and a signed, CRC-correct pointer sector names a complete image behind a good BOOT2.
[[nodiscard]] bool copy_bootable(ImageFormat format, Bytes flash, std::uint64_t start);

// The first bootable candidate; nullopt = the device comes up in flash recovery mode.
[[nodiscard]] std::optional<BootCopy> find_boot_copy(ImageFormat format, Bytes flash,
                                                     std::optional<std::uint64_t> boot_address);

}  // namespace openflint
