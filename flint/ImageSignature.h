// ImageSignature: what flint prints about an FS4 image's signature sections (v and q), and the
// public key --public_key names.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint::flint {

struct SignatureSummary {
  std::vector<std::string> lines;  // "Image signature:       ..." lines, one per section
  nlohmann::json json = nlohmann::json::array();
  // With a public key: true unless a section signed for the key's size verifies with it and none fails.
  bool key_check_failed = false;
};

// Nothing (no lines, an empty array) for an image that is not FS4. `public_key_path` empty: the
// signatures are reported, not checked (a digest-only section is always checked).
[[nodiscard]] Result<SignatureSummary> summarize_signatures(Bytes image, const std::string& public_key_path);

}  // namespace openflint::flint
