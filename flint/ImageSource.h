// ImageSource: the image named by -i — a mapped image file, or one board extracted from an MFA.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/MappedFile.h"
#include "core/Result.h"
#include "flint/Options.h"

namespace openflint::flint {

class ImageSource {
 public:
  // Opens options.image; an MFA archive needs options.psid to pick the board.
  [[nodiscard]] static Result<ImageSource> open(const Options& options);

  [[nodiscard]] Bytes bytes() const;
  // "FILE" or "FILE (board PSID)" for messages.
  [[nodiscard]] const std::string& label() const { return label_; }

 private:
  std::optional<MappedFile> mapped_;
  std::vector<std::uint8_t> extracted_;
  std::string label_;
};

// True when the file starts with the MFA magic "MFAR".
[[nodiscard]] bool is_mfa_archive(const std::string& path);

}  // namespace openflint::flint
