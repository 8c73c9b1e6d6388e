// ImageChecksum: mstflint's `checksum` — MD5 over the parts of an image that are not device data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Md5.h"
#include "core/Result.h"

namespace openflint {

// One hashed piece of an image, in hashing order. FS2 pieces carry the per-board fields
// (image CRC, GUIDs, VSD, IMG_INFO CRC) already masked to 0xFF.
struct ChecksumRegion {
  std::string name;           // "BOOT2", "ITOC_HEADER", "MAIN_CODE", "DDR", ...
  std::uint64_t offset = 0;   // where the piece starts, from the image start
  std::vector<std::uint8_t> bytes;
};

// The pieces mstflint's FwCalcMD5 hashes (docs/checksum.md), for the image located in `data`
// (as a file holds it: FS2 contiguous, FS3/FS4 the copy at its start). FS1: NotSupported, as
// mstflint; no image: InvalidImage.
[[nodiscard]] Result<std::vector<ChecksumRegion>> checksum_regions(Bytes data);

// MD5 of the concatenated regions: what `mstflint -i IMAGE checksum` prints.
[[nodiscard]] Result<Md5::Digest> image_checksum(Bytes data);

// The digest as `mstflint checksum` prints it: the 16 bytes last to first (flint/subcommands.cpp
// checkSum2Str), i.e. the byte-reversed md5sum text.
[[nodiscard]] std::string checksum_text(const Md5::Digest& digest);

}  // namespace openflint
