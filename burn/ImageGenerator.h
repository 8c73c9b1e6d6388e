// ImageGenerator: builds the image bytes for a firmware description plus a board configuration.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "burn/BoardConfig.h"
#include "burn/FirmwareDescription.h"
#include "core/Result.h"

namespace openflint::burn {

// FS1 (Fs1Writer), FS2 (Fs2Writer, contiguous file image) and FS3 (Fs3Writer); FS4 gives
// NotSupported. The INI text is stored compressed (FS1/FS2 FW_CONF, FS3 DBG_FW_INI).
// Same inputs -> same bytes. The result is parsed and verified before it is returned:
// InvalidImage when our own parser would reject it (nothing is written or burned then).
[[nodiscard]] Result<std::vector<std::uint8_t>> generate_image(const FirmwareDescription& description,
                                                               const BoardConfig& config);

// Loads both files and generates; errors carry the failing file's name.
[[nodiscard]] Result<std::vector<std::uint8_t>> generate_image_from_files(
    const std::filesystem::path& description, const std::filesystem::path& ini);

}  // namespace openflint::burn
