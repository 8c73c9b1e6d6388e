// Fs4Image: FS4 image layout — detection, query, verify and INI extraction on a byte buffer.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageQuery.h"
#include "image/Toc.h"
#include "image/VerifyReport.h"

namespace openflint::fs4 {

// The magic pattern an FS4 copy starts with (not FS2/FS3's: its last three dwords differ).
inline constexpr std::array<std::uint32_t, 4> kMagic{0x4D544657, 0xABCDEF00, 0xFADE1234, 0x5678DEAD};

// True when an FS4 image starts at `offset` (cheap magic/signature check only).
[[nodiscard]] bool probe(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<ImageQuery> query(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<VerifyReport> verify(Bytes data, std::uint64_t offset);
// The zlib-compressed INI section, decompressed; NotFound when absent.
[[nodiscard]] Result<std::string> dump_config(Bytes data, std::uint64_t offset);

// The BOOT2 size and the ITOC in use (the backup one a sector later when the first is bad).
[[nodiscard]] Result<ItocLocation> locate_itoc(Bytes data, std::uint64_t offset);

}  // namespace openflint::fs4
