// Fs3Image: FS3 image layout — detection, query, verify and INI extraction on a byte buffer.
#pragma once

#include <cstdint>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageQuery.h"
#include "image/Toc.h"
#include "image/VerifyReport.h"

namespace openflint::fs3 {

// True when an FS3 image starts at `offset` (cheap magic/signature check only).
[[nodiscard]] bool probe(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<ImageQuery> query(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<VerifyReport> verify(Bytes data, std::uint64_t offset);
// The zlib-compressed INI section, decompressed; NotFound when absent.
[[nodiscard]] Result<std::string> dump_config(Bytes data, std::uint64_t offset);
// Absolute offset of the ITOC of the image at `offset`: the first 4 KiB-aligned ITOC signature
// after BOOT2. InvalidImage (naming where it searched) when BOOT2 is bad or there is none.
[[nodiscard]] Result<std::uint64_t> find_itoc(Bytes data, std::uint64_t offset);
// find_itoc with the BOOT2 size it found on the way.
[[nodiscard]] Result<ItocLocation> locate_itoc(Bytes data, std::uint64_t offset);

}  // namespace openflint::fs3
