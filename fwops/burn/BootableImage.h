// BootableImage: an image file that passed the burn acceptance rule, so a burn verifies it once.
#pragma once

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint {

// The acceptance rule of every burn: the image must verify as `flint v` does (every section the
// device needs to boot parses and has its CRC). A BootableImage is made only by check(), so the
// burn steps that take one (fwops/burn/FailsafeBurner.h, fwops/burn/FirmwareBurn.h) never verify it again.
// It views the caller's bytes, which must outlive it.
class BootableImage {
 public:
  // InvalidImage naming the first failing section.
  [[nodiscard]] static Result<BootableImage> check(Bytes image);
  [[nodiscard]] Bytes bytes() const { return bytes_; }

 private:
  explicit BootableImage(Bytes bytes) : bytes_(bytes) {}
  Bytes bytes_;
};

// BootableImage::check without keeping the result.
[[nodiscard]] Result<void> check_image_bootable(Bytes image);

}  // namespace openflint
