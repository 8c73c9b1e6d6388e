// ImageSet: loading images from an MFA archive or a directory and picking one per PSID.
#include "fabric/ImageSet.h"

#include <utility>

#include "core/InputFile.h"
#include "devices/FlashChip.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace fs = std::filesystem;

Result<ImageSet> ImageSet::from_package(const FirmwarePackage& package, const std::string& source,
                                        const std::set<std::string>& psids) {
  ImageSet set;
  set.source_ = source;
  std::vector<PackageImage> wanted;  // in the package's order: one pass over an MFA archive's DATA
  for (const auto& image : package.images()) {
    if (psids.count(image.psid) == 0) continue;
    // An entry claiming more than any flash holds is refused before anything is inflated.
    OF_ASSIGN_CTX(PackageImage found, package.find(image.psid, largest_flash_size()), source);
    wanted.push_back(std::move(found));
  }
  std::vector<FirmwareFile> files(wanted.size());
  OF_TRY_CTX(package.extract_each(wanted, [&files](std::size_t i, Bytes chunk) -> Result<void> {
    files[i].bytes.insert(files[i].bytes.end(), chunk.begin(), chunk.end());
    return {};
  }), "extracting from " + source);
  const bool mfa = package.kind() == PackageKind::Mfa;
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    files[i].label = source + (mfa ? " (board " : " (device ") + wanted[i].psid + ")";
    OF_ASSIGN_CTX(files[i].query, query_image(files[i].bytes), files[i].label);
    set.by_psid_.emplace(wanted[i].psid, std::move(files[i]));
  }
  return set;
}

Result<ImageSet> ImageSet::from_directory(const fs::path& dir) {
  ImageSet set;
  set.source_ = dir.string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return make_error(ErrorCode::NotFound, dir.string() + " is not a directory");
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    // Only regular files up to the largest flash can be images; others may share the folder.
    auto read = read_input_file(entry.path().string(), largest_flash_size(), "image");
    if (!read) continue;
    std::vector<std::uint8_t> bytes = std::move(*read);
    auto query = query_image(bytes);
    if (!query || query->psid.empty()) continue;  // not an image: other files may share the folder
    auto it = set.by_psid_.find(query->psid);
    if (it != set.by_psid_.end() && it->second.query.fw_version >= query->fw_version) continue;
    FirmwareFile file{entry.path().string(), std::move(bytes), *query};
    set.by_psid_.insert_or_assign(query->psid, std::move(file));
  }
  if (ec) return make_error(ErrorCode::Io, "listing " + dir.string() + ": " + ec.message());
  return set;
}

Result<const FirmwareFile*> ImageSet::find(const std::string& psid) const {
  auto it = by_psid_.find(psid);
  if (it == by_psid_.end())
    return make_error(ErrorCode::NotFound, "no image for PSID " + (psid.empty() ? std::string("(unknown)") : psid) +
                                               " in " + source_);
  return &it->second;
}

}  // namespace openflint
