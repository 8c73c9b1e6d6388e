// ImageSource: -i and --psid to the library's ImageName.
#include "flint/ImageSource.h"

namespace openflint::flint {

Result<ImageName> image_name(const Options& options) {
  if (options.image.empty()) return make_error(ErrorCode::InvalidArgument, "no image given: use -i FILE");
  return ImageName{options.image, options.psid};
}

Result<ImageFile> open_image(const Options& options) {
  OF_ASSIGN(const ImageName name, image_name(options));
  return ImageFile::open(name);
}

}  // namespace openflint::flint
