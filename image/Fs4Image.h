// Fs4Image: FS4 image layout — detection, query, verify and INI extraction on a byte buffer.
#pragma once

#include <cstdint>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageQuery.h"
#include "image/Toc.h"
#include "image/VerifyReport.h"

namespace openflint::fs4 {

// True when an FS4 image starts at `offset` (cheap magic/signature check only).
[[nodiscard]] bool probe(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<ImageQuery> query(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<VerifyReport> verify(Bytes data, std::uint64_t offset);
// The zlib-compressed INI section, decompressed; NotFound when absent.
[[nodiscard]] Result<std::string> dump_config(Bytes data, std::uint64_t offset);

// The BOOT2 size and the ITOC in use (the backup one a sector later when the first is bad).
[[nodiscard]] Result<ItocLocation> locate_itoc(Bytes data, std::uint64_t offset);

}  // namespace openflint::fs4
