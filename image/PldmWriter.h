// PldmWriter: builds a DSP0267 1.0 PLDM package (one device record and one firmware component per PSID) that the kernel's pldmfw takes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

struct PldmInput {
  std::string psid;
  std::vector<std::uint8_t> image;  // the firmware image (component identifier 1)
  std::string version;              // its firmware version ("16.35.2000"); empty: "unknown"
};

// The 1.0 header (the revision the kernel's lib/pldmfw and mstflint read) with `package_version`
// (empty: the inputs' versions) and `release_unix_time` (0: no date); per input, in order, a
// firmware device record {PCI vendor ID 0x15B3, NVIDIA's vendor-defined "PSID" descriptor (ASCII,
// NUL-terminated)} applying only to its own component, whose info says identifier 1,
// classification 0x000D, force update, activation 0x0038 as NVIDIA's packages do; the header CRC32
// (zlib's); then the images back to back. An empty input list or more than 255 inputs (the kernel
// counts both records and components in a byte), an empty or duplicate PSID, a PSID or version
// over 200 bytes, an empty image, or a package past 4 GiB is InvalidArgument.
[[nodiscard]] Result<std::vector<std::uint8_t>> build_pldm(const std::vector<PldmInput>& inputs,
                                                           const std::string& package_version = {},
                                                           std::int64_t release_unix_time = 0);

}  // namespace openflint
