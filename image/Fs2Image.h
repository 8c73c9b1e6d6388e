// Fs2Image: FS2 image layout — detection, query, verify and INI extraction on a byte buffer.
#pragma once

#include <cstdint>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageQuery.h"
#include "image/VerifyReport.h"

namespace openflint::fs2 {

// True when an FS2 image starts at `offset` (cheap magic/signature check only).
[[nodiscard]] bool probe(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<ImageQuery> query(Bytes data, std::uint64_t offset);
// Query of one contiguous (de-striped) copy at offset 0 from its header and the two sections
// the header points at (image info, GUIDs), without walking the other sections: for a copy
// of which only those bytes were read.
[[nodiscard]] Result<ImageQuery> query_by_pointers(Bytes copy);
[[nodiscard]] Result<VerifyReport> verify(Bytes data, std::uint64_t offset);
// The zlib-compressed INI section, decompressed; NotFound when absent.
[[nodiscard]] Result<std::string> dump_config(Bytes data, std::uint64_t offset);

}  // namespace openflint::fs2
