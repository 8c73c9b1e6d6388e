// PackageImages: reading the images a package is created from.
#include "flint/PackageImages.h"

#include <algorithm>
#include <filesystem>

#include "core/MappedFile.h"
#include "devices/FlashChip.h"
#include "image/FirmwareImage.h"

namespace openflint::flint {

Result<std::vector<std::string>> package_image_paths(const std::vector<std::string>& inputs) {
  std::vector<std::string> out;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(input, ec)) {
      out.push_back(input);
      continue;
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(input, ec))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    if (ec) return make_error(ErrorCode::Io, input + ": " + ec.message());
    std::sort(files.begin(), files.end());
    if (files.empty()) return make_error(ErrorCode::InvalidArgument, input + ": no files in the directory");
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

Result<ImageQuery> package_image_query(const std::string& path, Bytes image) {
  OF_ASSIGN_CTX(ImageQuery query, query_image(image), path);
  if (query.format != ImageFormat::Fs3 && query.format != ImageFormat::Fs4)
    return make_error(ErrorCode::NotSupported, path + ": an " + std::string(to_string(query.format)) +
                                                   " image; packages carry FS3/FS4 images only");
  if (query.psid.empty()) return make_error(ErrorCode::InvalidImage, path + ": the image has no PSID");
  return query;
}

Result<PackageInput> read_package_image(const std::string& path) {
  OF_ASSIGN(const MappedFile file, MappedFile::open(path, largest_flash_size(), "image"));
  OF_ASSIGN(const ImageQuery query, package_image_query(path, file.bytes()));
  const Bytes bytes = file.bytes();
  return PackageInput{.path = path,
                      .psid = query.psid,
                      .fw_version = query.fw_version ? query.fw_version->to_string() : std::string(),
                      .bytes = std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
}

}  // namespace openflint::flint
