// ImageSource: maps an image file, or streams one board out of an MFA archive into memory.
#include "flint/ImageSource.h"

#include <cstring>
#include <unistd.h>

#include <cstdint>

#include "core/InputFile.h"
#include "devices/FlashChip.h"
#include "image/MfaArchive.h"

namespace openflint::flint {

bool is_mfa_archive(const std::string& path) {
  // Special files are not archives; opening them here must not block (a FIFO) or read (a tty).
  auto file = InputFile::open(path, UINT64_MAX);
  char magic[4] = {};
  return file && ::pread(file->fd(), magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
         std::memcmp(magic, "MFAR", 4) == 0;
}

Result<ImageSource> ImageSource::open(const Options& options) {
  if (options.image.empty())
    return make_error(ErrorCode::InvalidArgument, "no image given: use -i FILE");
  ImageSource source;
  if (!is_mfa_archive(options.image)) {
    if (!options.psid.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "--psid applies to .mfa archives only; " + options.image + " is not one");
    OF_ASSIGN(source.mapped_, MappedFile::open(options.image, largest_flash_size(), "image"));
    source.label_ = options.image;
    return source;
  }
  OF_ASSIGN(const MfaArchive archive, MfaArchive::open(options.image));
  if (options.psid.empty())
    return make_error(ErrorCode::InvalidArgument,
                      options.image + " is an MFA archive of " +
                          std::to_string(archive.boards().size()) +
                          " boards: pick one with --psid PSID (see 'archive list')");
  // An entry claiming more than any flash holds is refused before anything is inflated.
  OF_ASSIGN_CTX(const MfaBoard* board, archive.find_board(options.psid, largest_flash_size()), options.image);
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

}  // namespace openflint::flint
