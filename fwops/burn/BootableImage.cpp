// BootableImage: the burn acceptance rule (image/ verification, as `flint v`).
#include "fwops/burn/BootableImage.h"

#include <string>

#include "core/HexString.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace {

std::string first_fault(const VerifyReport& report) {
  if (!report.problems.empty()) return report.problems.front();
  for (const auto& c : report.sections)
    if (c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid)
      return c.name + " at " + hex_string(c.start) + ": " + to_string(c.status) + (c.detail.empty() ? "" : " (" + c.detail + ")");
  return "not bootable";
}

}  // namespace

Result<BootableImage> BootableImage::check(Bytes image) {
  OF_ASSIGN_CTX(const VerifyReport report, verify_image(image), "the image does not verify");
  if (!report.bootable())
    return make_error(ErrorCode::InvalidImage, "the image does not verify (" + first_fault(report) +
                                                   "): a device would not boot it, not burning");
  return BootableImage(image);
}

Result<void> check_image_bootable(Bytes image) {
  OF_TRY(BootableImage::check(image));
  return {};
}

}  // namespace openflint
