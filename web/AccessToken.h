// AccessToken: the web console's bearer secret — 128 random bits from the kernel (getrandom), shown
// once in the URL `mst web` prints; compared in constant time.
#pragma once

#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// 32 lowercase hex digits from getrandom(2). Io when the kernel gives none.
[[nodiscard]] Result<std::string> random_access_token();

// Whether `given` equals `expected`, in time that does not depend on where they differ. An empty
// `expected` matches nothing.
[[nodiscard]] bool token_matches(std::string_view given, std::string_view expected);

}  // namespace openflint
