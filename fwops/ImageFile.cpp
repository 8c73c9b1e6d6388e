// ImageFile: maps an image file, or streams one board out of a firmware package (MFA, MFA2, PLDM) into memory.
#include "fwops/ImageFile.h"

#include "devices/FlashChip.h"
#include "image/FirmwarePackage.h"

namespace openflint {

bool is_mfa_archive(const std::string& path) { return package_kind_of_file(path) == PackageKind::Mfa; }

bool is_mfa2_package(const std::string& path) { return package_kind_of_file(path) == PackageKind::Mfa2; }

bool is_pldm_package(const std::string& path) { return package_kind_of_file(path) == PackageKind::Pldm; }

Result<ImageFile> ImageFile::open(const ImageName& name) {
  ImageFile image;
  if (!package_kind_of_file(name.path)) {
    if (!name.psid.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "--psid applies to .mfa/.mfa2/.fwpkg packages only; " + name.path + " is not one");
    OF_ASSIGN(image.mapped_, MappedFile::open(name.path, largest_flash_size(), "image"));
    image.label_ = name.path;
    return image;
  }
  OF_ASSIGN(const std::unique_ptr<FirmwarePackage> package, open_package(name.path));
  OF_TRY(image.take_board(*package, name.path, name.psid));
  return image;
}

Result<ImageFile> ImageFile::from_bytes(std::vector<std::uint8_t> bytes, const std::string& label,
                                       const std::string& psid) {
  ImageFile image;
  image.label_ = label;
  if (!package_kind(bytes)) {
    if (bytes.size() > largest_flash_size())
      return make_error(ErrorCode::InvalidImage, label + ": " + std::to_string(bytes.size()) +
                                                     " bytes, more than any flash holds");
    image.extracted_ = std::move(bytes);
    return image;
  }
  OF_ASSIGN(const std::unique_ptr<FirmwarePackage> package, package_from_bytes(std::move(bytes), label));
  OF_TRY(image.take_board(*package, label, psid));
  return image;
}

Result<void> ImageFile::take_board(const FirmwarePackage& package, const std::string& label, const std::string& psid) {
  const bool mfa = package.kind() == PackageKind::Mfa;
  if (psid.empty())
    return make_error(ErrorCode::InvalidArgument,
                      label + " is an " + std::string(to_string(package.kind())) + " of " +
                          std::to_string(package.images().size()) + (mfa ? " boards" : " devices") +
                          ": pick one with --psid PSID (see 'archive list')");
  // An image claiming more than any flash holds is refused before anything is inflated.
  std::vector<std::uint8_t>& out = extracted_;
  OF_TRY_CTX(package.extract(psid, largest_flash_size(), [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  }), label);
  label_ = label + (mfa ? " (board " : " (device ") + psid + ")";
  return {};
}

Bytes ImageFile::bytes() const {
  if (mapped_) return mapped_->bytes();
  return extracted_;
}

}  // namespace openflint
