// ImageFile: maps an image file, or streams one board out of an MFA archive into memory.
#include "fwops/ImageFile.h"

#include <cstring>
#include <unistd.h>

#include <cstdint>

#include "core/InputFile.h"
#include "devices/FlashChip.h"
#include "image/Mfa2Package.h"
#include "image/MfaArchive.h"

namespace openflint {

bool is_mfa_archive(const std::string& path) {
  // Special files are not archives; opening them here must not block (a FIFO) or read (a tty).
  auto file = InputFile::open(path, UINT64_MAX);
  char magic[4] = {};
  return file && ::pread(file->fd(), magic, sizeof magic, 0) == static_cast<ssize_t>(sizeof magic) &&
         std::memcmp(magic, "MFAR", 4) == 0;
}

bool is_mfa2_package(const std::string& path) {
  auto file = InputFile::open(path, UINT64_MAX);
  std::uint8_t head[16] = {};
  return file && ::pread(file->fd(), head, sizeof head, 0) == static_cast<ssize_t>(sizeof head) &&
         Mfa2Package::has_fingerprint(head);
}

namespace {

// The firmware component of the device `psid` names, unpacked into memory.
Result<std::vector<std::uint8_t>> mfa2_firmware(const Mfa2Package& package, const std::string& label,
                                                const std::string& psid) {
  if (psid.empty())
    return make_error(ErrorCode::InvalidArgument,
                      label + " is an MFA2 package of " + std::to_string(package.devices().size()) +
                          " devices: pick one with --psid PSID (see 'archive list')");
  OF_ASSIGN_CTX(const Mfa2Device* device, package.find_device(psid), label);
  OF_ASSIGN_CTX(const Mfa2Component* component, package.firmware(*device, largest_flash_size()), label);
  std::vector<std::uint8_t> out;
  OF_TRY_CTX(package.extract(*component, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  }), label);
  return out;
}

}  // namespace

Result<ImageFile> ImageFile::open(const ImageName& name) {
  ImageFile image;
  if (is_mfa2_package(name.path)) {
    OF_ASSIGN(const Mfa2Package package, Mfa2Package::open(name.path));
    OF_ASSIGN(image.extracted_, mfa2_firmware(package, name.path, name.psid));
    image.label_ = name.path + " (device " + name.psid + ")";
    return image;
  }
  if (!is_mfa_archive(name.path)) {
    if (!name.psid.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "--psid applies to .mfa/.mfa2 packages only; " + name.path + " is not one");
    OF_ASSIGN(image.mapped_, MappedFile::open(name.path, largest_flash_size(), "image"));
    image.label_ = name.path;
    return image;
  }
  OF_ASSIGN(const MfaArchive archive, MfaArchive::open(name.path));
  if (name.psid.empty())
    return make_error(ErrorCode::InvalidArgument,
                      name.path + " is an MFA archive of " + std::to_string(archive.boards().size()) +
                          " boards: pick one with --psid PSID (see 'archive list')");
  // An entry claiming more than any flash holds is refused before anything is inflated.
  OF_ASSIGN_CTX(const MfaBoard* board, archive.find_board(name.psid, largest_flash_size()), name.path);
  std::vector<std::uint8_t>& out = image.extracted_;
  OF_TRY(archive.extract(*board, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  }));
  image.label_ = name.path + " (board " + name.psid + ")";
  return image;
}

Result<ImageFile> ImageFile::from_bytes(std::vector<std::uint8_t> bytes, const std::string& label,
                                       const std::string& psid) {
  ImageFile image;
  image.label_ = label;
  if (Mfa2Package::has_fingerprint(bytes)) {
    OF_ASSIGN_CTX(const Mfa2Package package, Mfa2Package::from_bytes(std::move(bytes)), label);
    OF_ASSIGN(image.extracted_, mfa2_firmware(package, label, psid));
    image.label_ = label + " (device " + psid + ")";
    return image;
  }
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "MFAR", 4) != 0) {
    if (bytes.size() > largest_flash_size())
      return make_error(ErrorCode::InvalidImage, label + ": " + std::to_string(bytes.size()) +
                                                     " bytes, more than any flash holds");
    image.extracted_ = std::move(bytes);
    return image;
  }
  OF_ASSIGN_CTX(const MfaArchive archive, MfaArchive::from_bytes(std::move(bytes)), label);
  if (psid.empty())
    return make_error(ErrorCode::InvalidArgument, label + " is an MFA archive: the board's PSID is needed to pick an image");
  OF_ASSIGN_CTX(const MfaBoard* board, archive.find_board(psid, largest_flash_size()), label);
  std::vector<std::uint8_t>& out = image.extracted_;
  OF_TRY(archive.extract(*board, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  }));
  image.label_ = label + " (board " + psid + ")";
  return image;
}

Bytes ImageFile::bytes() const {
  if (mapped_) return mapped_->bytes();
  return extracted_;
}

}  // namespace openflint
