// ImageSource: maps an image file, or streams one board out of an MFA archive into memory.
#include "flint/ImageSource.h"

#include <cstring>
#include <fstream>

#include "image/MfaArchive.h"

namespace openflint::cli {

bool is_mfa_archive(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, sizeof magic) && std::memcmp(magic, "MFAR", 4) == 0;
}

Result<ImageSource> ImageSource::open(const Options& options) {
  if (options.image.empty())
    return make_error(ErrorCode::InvalidArgument, "no image given: use -i FILE");
  ImageSource source;
  if (!is_mfa_archive(options.image)) {
    if (!options.psid.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "--psid applies to .mfa archives only; " + options.image + " is not one");
    OF_ASSIGN(source.mapped_, MappedFile::open(options.image));
    source.label_ = options.image;
    return source;
  }
  OF_ASSIGN(const MfaArchive archive, MfaArchive::open(options.image));
  if (options.psid.empty())
    return make_error(ErrorCode::InvalidArgument,
                      options.image + " is an MFA archive of " +
                          std::to_string(archive.boards().size()) +
                          " boards: pick one with --psid PSID (see 'archive list')");
  OF_ASSIGN(const MfaBoard* board, archive.find_board(options.psid));
  std::vector<std::uint8_t>& out = source.extracted_;
  OF_TRY(archive.extract(*board, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  }));
  source.label_ = options.image + " (board " + options.psid + ")";
  return source;
}

Bytes ImageSource::bytes() const {
  if (mapped_) return mapped_->bytes();
  return extracted_;
}

}  // namespace openflint::cli
