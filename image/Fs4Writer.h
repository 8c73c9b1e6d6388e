// Fs4Writer: generates FS4 (ConnectX-5+, Spectrum-2+) flash images: HW pointers, tools area, BOOT2,
// ITOC with the image's sections and blank signature and public-key sections (`flint sign` fills
// the signature: image/Fs4Signature.h), DTOC with the device data. Without a hashes table or boot
// record (mstflint signs such an image as "secure boot version 1": it needs neither).
#pragma once

#include <cstdint>
#include <vector>

#include "core/Result.h"
#include "image/Fs3Writer.h"

namespace openflint {

// What an FS3 image carries (its chunk size aside: FS4 has none) and the HW pointers' security
// version. `flash_size` is the image size: the DTOC sits in its last 4 KiB, the device data in
// the 256 KiB before it.
struct Fs4ImageSpec : Fs3ImageSpec {
  std::uint32_t security_version = 0;
};

// Offsets of the parts of a generated image.
struct Fs4Layout {
  std::uint64_t boot2 = 0;
  std::uint64_t itoc = 0;
  std::uint64_t dtoc = 0;
  std::vector<Fs3Layout::Placed> sections;  // ITOC entries, then DTOC entries, in order
};

// The image bytes (flash_size of them). InvalidArgument naming the field when the spec is out of
// range. Same spec -> same bytes.
[[nodiscard]] Result<std::vector<std::uint8_t>> write_fs4_image(const Fs4ImageSpec& spec,
                                                                Fs4Layout* layout = nullptr);

}  // namespace openflint
