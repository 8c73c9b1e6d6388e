// AccessToken: the web console's bearer secret — 128 random bits from the kernel (getrandom), shown
// once in the URL `mst web` prints; compared in constant time.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// 32 lowercase hex digits from getrandom(2). Io when the kernel gives none.
[[nodiscard]] Result<std::string> random_access_token();

// The token kept in `path` (a service's stable one): read when the file exists — refused
// (PermissionDenied) when group or others may read it, InvalidArgument when it does not hold 32
// hex digits — else a random one written there, created 0600. Io when it cannot be read or made.
[[nodiscard]] Result<std::string> load_or_create_token(const std::filesystem::path& path);

// Whether `given` equals `expected`, in time that does not depend on where they differ. An empty
// `expected` matches nothing.
[[nodiscard]] bool token_matches(std::string_view given, std::string_view expected);

}  // namespace openflint
