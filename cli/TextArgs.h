// TextArgs: what the tools share for text in and out — numbers typed on the command line, table rows.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/Result.h"

namespace openflint::cli {

// A decimal or 0x-prefixed hex number; InvalidArgument naming `what` (e.g. "address") otherwise.
[[nodiscard]] Result<std::uint64_t> parse_number(const std::string& text, const std::string& what);

// One table line: each cell padded to its width (0: as wide as it is), one space between cells,
// trailing blanks dropped, "\n" at the end.
[[nodiscard]] std::string table_row(const std::vector<std::pair<std::string, int>>& cells);

}  // namespace openflint::cli
