// ChecksumCommands: `checksum|cs` (mstflint's MD5 without device data) and `binary_compare|bc`.
#include <algorithm>
#include <iostream>

#include "core/Md5.h"
#include "cli/JsonOutput.h"
#include "flint/Commands.h"
#include "flint/DeviceAccess.h"
#include "cli/ExitCode.h"
#include "flint/ImageSource.h"
#include "flint/Commands.h"
#include "reports/ImageReport.h"
#include "image/ImageChecksum.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

int print_checksum(const Options& options, Bytes image, const std::string& label) {
  auto digest = image_checksum(image);
  if (!digest) return report_error(options, digest.error().with_context(label));
  const std::string text = checksum_text(*digest);
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"checksum", text}, {"md5", Md5::to_hex(*digest)}});
  } else {
    std::cout << "Checksum: " << text << '\n';
  }
  return cli::kOk;
}

// The first region that differs (by name, place or bytes); nullopt when all are equal.
std::optional<std::size_t> first_difference(const std::vector<ChecksumRegion>& device,
                                            const std::vector<ChecksumRegion>& image) {
  for (std::size_t i = 0; i < std::max(device.size(), image.size()); ++i) {
    if (i >= device.size() || i >= image.size()) return i;
    if (device[i].name != image[i].name || device[i].offset != image[i].offset || device[i].bytes != image[i].bytes)
      return i;
  }
  return std::nullopt;
}

int compare(const Options& options, const std::vector<ChecksumRegion>& device,
            const std::vector<ChecksumRegion>& image) {
  const auto diff = first_difference(device, image);
  if (!diff) {
    if (options.json) cli::print_json(nlohmann::json{{"ok", true}, {"equal", true}});
    else std::cout << "-I- Binary comparison success: the device's firmware equals " << options.image << '\n';
    return cli::kOk;
  }
  const ChecksumRegion& r = *diff < image.size() ? image[*diff] : device[*diff];
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", false}, {"equal", false}, {"first_difference", {{"section", r.name},
                                                                                      {"offset", hex(r.offset)}}}});
  } else {
    std::cout << "-W- Binary comparison failed: section " << r.name << " (at " << hex(r.offset)
              << " in the image) differs between the device and " << options.image << '\n';
  }
  return cli::kFailed;
}

}  // namespace

int run_checksum(const Options& options) {
  if (options.device.empty()) {
    auto source = open_image(options);
    if (!source) return report_error(options, source.error());
    return print_checksum(options, source->bytes(), source->label());
  }
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto file = read_device_image_file(options, device, flash);
    if (!file) return report_error(options, file.error());
    return print_checksum(options, *file, device.name());
  });
}

int run_binary_compare(const Options& options) {
  if (options.device.empty() || options.image.empty()) {
    return report_error(options, Error(ErrorCode::InvalidArgument, "binary_compare needs both -d DEVICE and -i IMAGE"));
  }
  auto source = open_image(options);
  if (!source) return report_error(options, source.error());
  auto image = checksum_regions(source->bytes());
  if (!image) return report_error(options, image.error().with_context(source->label()));
  return with_flash(options, [&](Device& device, FlashDriver& flash) {
    auto file = read_device_image_file(options, device, flash);
    if (!file) return report_error(options, file.error());
    auto regions = checksum_regions(*file);
    if (!regions) return report_error(options, regions.error().with_context(device.name()));
    return compare(options, *regions, *image);
  });
}

}  // namespace openflint::flint
