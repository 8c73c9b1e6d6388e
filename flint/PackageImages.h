// PackageImages: the FS3/FS4 images `archive create --bins` names (files, or every file of a directory), with their PSIDs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/FirmwareImage.h"

namespace openflint::flint {

struct PackageInput {
  std::string path;
  std::string psid;
  std::string fw_version;  // "16.35.2000"; empty when the image does not say
  std::vector<std::uint8_t> bytes;
};

// Files stay as given; a directory contributes its regular files, sorted. An empty directory is
// InvalidArgument.
[[nodiscard]] Result<std::vector<std::string>> package_image_paths(const std::vector<std::string>& inputs);
// The query of an image a package may carry (`path` names it in errors): NotSupported for formats
// other than FS3/FS4, InvalidImage without a PSID.
[[nodiscard]] Result<ImageQuery> package_image_query(const std::string& path, Bytes image);
// One FS3/FS4 image (sized against the largest flash), read into memory, with package_image_query's checks.
[[nodiscard]] Result<PackageInput> read_package_image(const std::string& path);

}  // namespace openflint::flint
