// FormatPatch: the per-format halves of ImagePatch (FS1/FS2 GPH images, FS3/FS4 DEV_INFO).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/ImagePatch.h"

namespace openflint::patch {

// Each works in place on the whole buffer `data`, the image starting at `offset`.
[[nodiscard]] Result<void> fs1_set_guids(std::vector<std::uint8_t>& data, std::uint64_t offset, const GuidSettings& s);
// The first GUID-section entries replaced by `uids` (FS1: every copy), CRCs resealed.
[[nodiscard]] Result<void> fs1_set_uids(std::vector<std::uint8_t>& data, std::uint64_t offset, std::span<const std::uint64_t> uids);
[[nodiscard]] Result<void> fs2_set_uids(std::vector<std::uint8_t>& data, std::uint64_t offset, std::span<const std::uint64_t> uids);
[[nodiscard]] Result<void> fs1_set_vsd(std::vector<std::uint8_t>& data, std::uint64_t offset, const std::string& vsd);
[[nodiscard]] Result<void> fs2_set_guids(std::vector<std::uint8_t>& data, std::uint64_t offset, const GuidSettings& s);
[[nodiscard]] Result<void> fs2_set_vsd(std::vector<std::uint8_t>& data, std::uint64_t offset, const std::string& vsd);
// GUIDs/MACs (when `g`) and the VSD (when `vsd`) in one go. FS3 (fs4 = false): the DEV_INFO
// sections of the copy's ITOC; FS4: the DTOC (last 4 KiB of `data`: a whole flash or a
// flash-layout file) — written into its other DEV_INFO slot, the old slot's signature cleared.
[[nodiscard]] Result<void> dev_info_set(std::vector<std::uint8_t>& data, std::uint64_t offset, bool fs4,
                                        const GuidSettings* g, const UidAllocation& allocation, const std::string* vsd);

}  // namespace openflint::patch
