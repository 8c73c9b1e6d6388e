// ImageText: fwburn's "IMG" form of an image (-format IMG) — the flash bytes as hex text, and back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint::burn {

// The IMG form (docs/fwburn.md, "Output formats"; the layout is our choice, no source describes
// mlxburn's): '#' comment lines (`title` first, when not empty), then one line per 32 bytes:
// "AAAAAAAA: WWWWWWWW WWWWWWWW ..." — the line's offset and its bytes as 32-bit words in flash
// order (big-endian: the first byte is the word's top two digits), lower-case hex. The last word
// of an image whose size is not a multiple of 4 has fewer digits (2 per byte).
[[nodiscard]] std::string image_text(Bytes image, std::string_view title);

// The bytes of an IMG text: '#' and blank lines skipped; every other line must be the next
// offset and whole words (InvalidImage naming the line otherwise).
[[nodiscard]] Result<std::vector<std::uint8_t>> parse_image_text(std::string_view text);

}  // namespace openflint::burn
