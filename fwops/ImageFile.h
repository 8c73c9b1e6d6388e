// ImageFile: the image a tool names — a mapped image file, or one board extracted from an MFA, MFA2 or PLDM package.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/MappedFile.h"
#include "core/Result.h"
#include "image/FirmwarePackage.h"

namespace openflint {

// A file, and for an MFA archive the PSID of the board to take out of it.
struct ImageName {
  std::string path;
  std::string psid;  // empty for a plain image; required for an archive
};

class ImageFile {
 public:
  // Maps a plain image (sized against the largest flash before it is read), or takes the board
  // `name.psid` names out of a package recognised by its content — MFA ("MFAR"), MFA2 (its
  // fingerprint) or PLDM (a DSP0267 header identifier) — its size checked before it is read.
  // A PSID given for a plain image, or none for an archive, is InvalidArgument.
  [[nodiscard]] static Result<ImageFile> open(const ImageName& name);

  // Bytes received whole (the web console's upload): a plain image as it is, or from an MFA,
  // MFA2 or PLDM package (recognised by content) the board `psid` names (the device's own, for
  // an upload). InvalidImage when a plain image is larger than any flash.
  [[nodiscard]] static Result<ImageFile> from_bytes(std::vector<std::uint8_t> bytes, const std::string& label,
                                                    const std::string& psid);

  [[nodiscard]] Bytes bytes() const;
  // "FILE" or "FILE (board PSID)" for messages.
  [[nodiscard]] const std::string& label() const { return label_; }

 private:
  // The board `psid` names out of `package` into extracted_; `label` names the package.
  [[nodiscard]] Result<void> take_board(const FirmwarePackage& package, const std::string& label, const std::string& psid);

  std::optional<MappedFile> mapped_;
  std::vector<std::uint8_t> extracted_;
  std::string label_;
};

// True when the file starts with the MFA magic "MFAR" (special files never are, and are not read).
[[nodiscard]] bool is_mfa_archive(const std::string& path);
// True when the file starts with the MFA2 fingerprint "MLNX.MFA2.XZ.00!" (special files are not read).
[[nodiscard]] bool is_mfa2_package(const std::string& path);
// True when the file starts with a DSP0267 PLDM package header identifier (1.0-1.3; special files are not read).
[[nodiscard]] bool is_pldm_package(const std::string& path);

}  // namespace openflint
