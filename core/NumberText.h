// NumberText: an unsigned number typed by a person ("42", "0x2a"), bounded, with a message naming what it is.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// Decimal, or hex after 0x/0X; the whole text. InvalidArgument "<what> '<text>' is not a number"
// or "... is out of range (max N)".
[[nodiscard]] Result<std::uint64_t> parse_unsigned(std::string_view text, std::uint64_t max, std::string_view what);

}  // namespace openflint
