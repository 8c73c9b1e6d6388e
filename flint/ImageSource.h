// ImageSource: the image named by -i (and --psid for an MFA archive), opened as fwops/ImageFile.
#pragma once

#include "core/Result.h"
#include "flint/Options.h"
#include "fwops/ImageFile.h"

namespace openflint::flint {

// -i FILE [--psid PSID] as the library's image name; no -i is InvalidArgument.
[[nodiscard]] Result<ImageName> image_name(const Options& options);
// Opens it (fwops/ImageFile.h).
[[nodiscard]] Result<ImageFile> open_image(const Options& options);

}  // namespace openflint::flint
