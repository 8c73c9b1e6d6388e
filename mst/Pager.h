// Pager: long text shown through $PAGER (or less -FRX) when stdout is a terminal, else printed as it is.
#pragma once

#include <string_view>

namespace openflint::mst {

// Whether output would be paged: stdout is a terminal and `allowed` (no --no-pager, --json or
// --follow).
[[nodiscard]] bool paging_wanted(bool allowed);

// Writes `text` to stdout, through the pager when `page` (the pager's own exit is not an error:
// a user who quits it early has seen enough). A pager that cannot start: the text goes to stdout.
void print_paged(std::string_view text, bool page);

}  // namespace openflint::mst
