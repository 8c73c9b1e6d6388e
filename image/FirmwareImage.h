// FirmwareImage: format detection and the query/verify/dump-config entry points for any format.
#pragma once

#include <cstdint>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageFormat.h"
#include "image/ImageQuery.h"
#include "image/VerifyReport.h"

namespace openflint {

struct ImageLocation {
  ImageFormat format = ImageFormat::Fs3;
  std::uint64_t offset = 0;  // where the image magic / invariant sector was found
};

// Searches the standard start offsets {0, 0x10000, 0x20000, 0x40000, ... 0x2000000}.
[[nodiscard]] Result<ImageLocation> locate_image(Bytes data);

[[nodiscard]] Result<ImageQuery> query_image(Bytes data);
[[nodiscard]] Result<VerifyReport> verify_image(Bytes data);
// The INI configuration stored zlib-compressed in the image (FS1/FS2 FW_CONF, FS3/FS4
// DBG_FW_INI), decompressed byte-for-byte. NotFound when the image carries none.
[[nodiscard]] Result<std::string> dump_config(Bytes data);

}  // namespace openflint
