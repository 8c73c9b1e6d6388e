// FormatTable: the one table of image formats (probe, query, verify, INI, identity patching) per ImageFormat.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageFormat.h"
#include "image/ImagePatch.h"
#include "image/ImageQuery.h"
#include "image/VerifyReport.h"

namespace openflint {

// What image/ knows how to do with one format; `offset` is where the image starts in `data`.
struct FormatOps {
  ImageFormat format;
  bool (*probe)(Bytes data, std::uint64_t offset);
  Result<ImageQuery> (*query)(Bytes data, std::uint64_t offset);
  Result<VerifyReport> (*verify)(Bytes data, std::uint64_t offset);
  Result<std::string> (*dump_config)(Bytes data, std::uint64_t offset);
  // The board identity, in place on the whole buffer: GUIDs/MACs (when `guids`) and the VSD
  // (when `vsd`); FS1/FS2 in every copy's GUID section and IMG_INFO, FS3/FS4 in DEV_INFO.
  Result<void> (*set_identity)(std::vector<std::uint8_t>& data, std::uint64_t offset, const GuidSettings* guids,
                               const UidAllocation& allocation, const std::string* vsd);
  // The first GUID-section entries; nullptr where GUIDs live in device data (FS3/FS4).
  Result<void> (*set_uids)(std::vector<std::uint8_t>& data, std::uint64_t offset, std::span<const std::uint64_t> uids);
};

// Every format, in probe order (FS4, FS3, FS2, FS1: FS3 and FS2 share a magic and FS3's probe
// checks the format byte).
[[nodiscard]] std::span<const FormatOps> format_table();
[[nodiscard]] const FormatOps& format_ops(ImageFormat format);

}  // namespace openflint
