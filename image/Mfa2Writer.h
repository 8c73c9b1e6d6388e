// Mfa2Writer: builds an MFA2 package (one device descriptor and one firmware component per PSID) that the kernel's mlxfw parser takes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

struct Mfa2Input {
  std::string psid;
  std::vector<std::uint8_t> image;  // the firmware image (component identifier 1)
};

// Fingerprint; a package-descriptor multi-part (the descriptor, then mstflint's two SHA-256
// extensions, image/Mfa2Format.h); per input, in order, a device multi-part
// {PSID, COMPONENT_PTR to its component} and then a component multi-part {COMPONENT_DESCRIPTOR};
// then the component block: one xz stream (CRC32 check, `xz_preset`) of each image preceded by
// "#BIN.COMPONENT!#". No other optional TLVs (versions, descriptions). An empty input list, an empty or
// duplicate PSID, a PSID over 255 bytes or an empty image is InvalidArgument.
[[nodiscard]] Result<std::vector<std::uint8_t>> build_mfa2(const std::vector<Mfa2Input>& inputs,
                                                           std::uint32_t xz_preset = 6);

}  // namespace openflint
