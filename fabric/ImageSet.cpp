// ImageSet: loading images from an MFA archive or a directory and picking one per PSID.
#include "fabric/ImageSet.h"

#include <utility>

#include "core/InputFile.h"
#include "devices/FlashChip.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace fs = std::filesystem;

Result<ImageSet> ImageSet::from_archive(const MfaArchive& archive, const std::string& source,
                                        const std::set<std::string>& psids) {
  ImageSet set;
  set.source_ = source;
  for (const auto& psid : psids) {
    // An entry claiming more than any flash holds is refused before anything is inflated.
    auto board = archive.find_board(psid, largest_flash_size());
    if (!board && board.error().code() == ErrorCode::NotFound) continue;
    if (!board) return make_error(std::move(board).error().with_context(source));
    FirmwareFile file;
    file.label = source + " (board " + psid + ")";
    auto& out = file.bytes;
    auto extracted = archive.extract(**board, [&out](Bytes chunk) -> Result<void> {
      out.insert(out.end(), chunk.begin(), chunk.end());
      return {};
    });
    if (!extracted) return make_error(std::move(extracted).error().with_context("extracting board " + psid));
    OF_ASSIGN_CTX(file.query, query_image(file.bytes), file.label);
    set.by_psid_.emplace(psid, std::move(file));
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
