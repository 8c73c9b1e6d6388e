// ImagePatch: `sg` / `sv` on an image buffer — a patched copy with every affected CRC resealed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint {

// What `flint sg GUID [MAC]` sets. GUIDs run base_guid, base_guid+1, ... (FS1/FS2: node, port1,
// port2, system image; FS3: DEV_INFO base with its stored count and step). MACs likewise from
// base_mac; when base_mac is absent the stored MACs are kept.
struct GuidSettings {
  std::uint64_t base_guid = 0;
  std::optional<std::uint64_t> base_mac;  // 48 bits, multicast bit (bit 40) clear
};

// FS3 only (mstflint `sg guids_num=N step_size=S`): DEV_INFO num_allocated and step of the GUID
// and MAC entries (8 bits each); absent = keep the stored values.
struct UidAllocation {
  std::optional<std::uint8_t> guids_num;
  std::optional<std::uint8_t> step_size;
  [[nodiscard]] bool any() const { return guids_num || step_size; }
};

inline constexpr std::size_t kMaxVsdLength = 208;

// The image located in `data` (a file or a whole flash dump, as query_image finds it) with new
// GUIDs/MACs: FS2 GUID section (+ whole-image CRC in fw_id when it was valid), FS1 GUID section
// of both copies, FS3 DEV_INFO (section CRC in its ITOC entry + the entry CRC; as mstflint, it
// needs MFG_INFO guids_override_en), FS4 the DTOC's valid DEV_INFO (its CRC in the entry or the
// section, and the entry CRC; the data must reach the flash end). InvalidArgument for a bad MAC;
// NotSupported for FS4 data without a DTOC, FS1 MACs, striped FS2 flash dumps and old (Connect-IB) DEV_INFO layouts; InvalidImage when the
// sections to patch are missing or already corrupt.
// `allocation` on FS1/FS2: NotSupported.
[[nodiscard]] Result<std::vector<std::uint8_t>> set_guids(Bytes data, const GuidSettings& settings,
                                                          const UidAllocation& allocation = {});

// The image (FS1/FS2) with the first entries of its GUID section (GUIDs, then FS2 MACs) set to
// `uids` exactly, as a burn keeps a board's identity; later entries stay. NotSupported on FS3/FS4
// (their identity is device data on flash); InvalidImage when the section holds fewer entries.
[[nodiscard]] Result<std::vector<std::uint8_t>> set_uid_entries(Bytes data, std::span<const std::uint64_t> uids);

// The image with a new VSD (at most 208 bytes, no nul): FS1/FS2 IMG_INFO VSD tag (FS1 also both
// pointer sectors), FS3/FS4 DEV_INFO vsd ("Device VSD", where mstflint sv puts it). Errors as above.
[[nodiscard]] Result<std::vector<std::uint8_t>> set_vsd(Bytes data, const std::string& vsd);

// set_guids and/or set_vsd as one change (FS4: one move to the other DEV_INFO slot).
[[nodiscard]] Result<std::vector<std::uint8_t>> set_identity(Bytes data, const std::optional<GuidSettings>& guids,
                                                             const std::optional<std::string>& vsd);

}  // namespace openflint
