// DeviceBurn: opens the -dev device like flint does (lock, identification), burns, commits.
#include "burn/cli/DeviceBurn.h"

#include "fwops/Device.h"
#include "fwops/DeviceBurn.h"
#include "fwops/DeviceQuery.h"
#include "fwops/ImageFile.h"

namespace openflint::burn::cli {

Result<BurnReport> burn_to_device(const std::string& device, Bytes image, const BurnOptions& options) {
  auto opened = open_device(device);
  if (!opened) return make_error(std::move(opened).error());
  Device& dev = *opened;
  auto report = burn_device(dev, image, options);
  // The flash may have changed even when the burn failed half way: keep what it now holds.
  auto saved = dev.commit();
  if (!report) return make_error(std::move(report).error().with_context("burning " + device));
  if (!saved) return make_error(std::move(saved).error().with_context("saving " + device));
  return report;
}

Result<BurnReport> burn_package_to_device(const std::string& device, const std::string& package,
                                          const BurnOptions& options, std::size_t& image_size) {
  auto opened = open_device(device);
  if (!opened) return make_error(std::move(opened).error());
  Device& dev = *opened;
  OF_ASSIGN(const std::string psid, device_psid(dev));
  OF_ASSIGN(const ImageFile image, ImageFile::open(ImageName{.path = package, .psid = psid}));
  image_size = image.bytes().size();
  auto report = burn_device(dev, image.bytes(), options);
  auto saved = dev.commit();
  if (!report) return make_error(std::move(report).error().with_context("burning " + image.label() + " into " + device));
  if (!saved) return make_error(std::move(saved).error().with_context("saving " + device));
  return report;
}

}  // namespace openflint::burn::cli
