// ImageInfo: the FS3/FS4 IMAGE_INFO and DEV_INFO sections → ImageQuery fields.
#pragma once

#include <cstddef>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint {

// Fills FW version, ISSU version, release date, PSID, VSD, PCI ids, supported hw ids, product
// version, description and name from an IMAGE_INFO section (layout version 0.x).
[[nodiscard]] Result<void> parse_image_info(Bytes section, ImageQuery& query);
// Fills base GUID/MAC from a DEV_INFO section (absent when the stored uid is 0, as mstflint
// prints "N/A").
[[nodiscard]] Result<void> parse_dev_info(Bytes section, ImageQuery& query);
// The largest INI an image may carry once inflated (and the largest fwburn stores): real board
// INIs are tens of KiB. A stream inflating past it is a compression bomb (zlib reaches ~1000:1,
// so a 64 MiB section could otherwise grow to 64 GiB) and is refused as it grows.
inline constexpr std::size_t kMaxInflatedConfigBytes = std::size_t{4} << 20;
// Inflates a zlib stream (trailing padding after the stream end is ignored); InvalidImage when it
// is corrupt, truncated or inflates past kMaxInflatedConfigBytes.
[[nodiscard]] Result<std::string> inflate_zlib_section(Bytes section);

}  // namespace openflint
