// RealImages: two releases of one board extracted from the shared MFA archives into a temp dir.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

struct ImagePair {
  std::vector<std::uint8_t> a;  // older release
  std::vector<std::uint8_t> b;  // newer release, same PSID
  std::string psid;
};

// nullopt (with `why`) when the shared dir or an archive is absent.
std::optional<ImagePair> extract_pair(const TempDir& dir, const std::string& archive_a,
                                      const std::string& archive_b, std::string& why);

}  // namespace openflint::test
