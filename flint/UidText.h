// UidText: GUIDs and MACs as users type them on flint's command line.
#pragma once

#include <cstdint>
#include <string>

#include "core/Result.h"

namespace openflint::flint {

// "0x0002c903000a0b0c", "0002c903000a0b0c" or "00:02:c9:..." (hex); at most `bits` bits.
// InvalidArgument naming `what` otherwise.
[[nodiscard]] Result<std::uint64_t> parse_uid(std::string text, int bits, const std::string& what);

}  // namespace openflint::flint
