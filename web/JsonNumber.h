// JsonNumber: numbers in the console's request bodies, given as JSON numbers or as text ("0x1f", "31").
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/Result.h"

namespace openflint {

// `value` as a JSON unsigned number or as text cli::parse_number reads; InvalidArgument naming
// `what` otherwise.
[[nodiscard]] Result<std::uint64_t> json_number(const nlohmann::json& value, const char* what);

// request[key] as json_number, at most `bits` wide; nullopt when the key is absent, null or "".
[[nodiscard]] Result<std::optional<std::uint64_t>> json_optional_number(const nlohmann::json& request, const char* key,
                                                                       int bits);

}  // namespace openflint
