// Mfa2Repack: writes an MFA2 package from the boards of another package (an MFA v1 archive, an MFA2), streaming.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/FirmwarePackage.h"

namespace openflint {

struct Mfa2RepackResult {
  std::vector<std::string> psids;  // in the order written
  std::uint64_t cb_size = 0;       // unpacked component block
  std::uint64_t size = 0;          // the package file
};

// Every board of `source` (or those `psids` names, each of which must be there: NotFound) into
// one MFA2 package at `out_path`, written atomically (core/OutputFile: a temp file renamed when
// complete, nothing left behind on an error or a stop signal; it must be a regular file). The
// boards go in the source's storage order, in one pass over an MFA archive's DATA, each image
// copied as it is, byte for byte, never a whole board in memory (image/Mfa2Writer
// Mfa2StreamWriter). An image larger than `max_image_size` is InvalidImage before anything is
// written. `progress(done, total)` counts the images' bytes.
[[nodiscard]] Result<Mfa2RepackResult> repack_as_mfa2(const FirmwarePackage& source, const std::vector<std::string>& psids,
                                                      std::uint64_t max_image_size, const std::string& out_path,
                                                      const std::function<void(std::uint64_t, std::uint64_t)>& progress = {},
                                                      std::uint32_t xz_preset = 6);

}  // namespace openflint
