// ImageSet: the firmware images an update may use, found by PSID (an MFA archive, an MFA2 package or a folder).
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/ImageQuery.h"
#include "image/FirmwarePackage.h"

namespace openflint {

struct FirmwareFile {
  std::string label;  // file path, "archive.mfa (board PSID)" or "package.mfa2 (device PSID)"
  std::vector<std::uint8_t> bytes;
  ImageQuery query;
};

class ImageSet {
 public:
  // Extracts the boards of `psids` that the package (an MFA archive or MFA2 package opened from
  // file `source`) holds; others are simply absent. The package is opened by the caller, before
  // the fabric is swept, so a missing or bad package is reported first.
  [[nodiscard]] static Result<ImageSet> from_package(const FirmwarePackage& package, const std::string& source,
                                                     const std::set<std::string>& psids);
  // Queries every regular file in `dir`; files that are not firmware images are skipped. When
  // several images carry one PSID the newest FW version wins.
  [[nodiscard]] static Result<ImageSet> from_directory(const std::filesystem::path& dir);

  // NotFound naming the PSID and the source when no image carries it.
  [[nodiscard]] Result<const FirmwareFile*> find(const std::string& psid) const;
  [[nodiscard]] std::size_t size() const { return by_psid_.size(); }

 private:
  std::string source_;
  std::map<std::string, FirmwareFile> by_psid_;
};

}  // namespace openflint
