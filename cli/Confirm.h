// Confirm: the one rule for every tool's yes/no question (-y, --no, no terminal means "no").
#pragma once

#include <string_view>

namespace openflint::cli {

struct ConfirmPolicy {
  bool yes = false;  // -y/--yes: answer yes without asking
  bool no = false;   // --no: answer no without asking
};

// Asks `question` ("Burn FW 12.1 over 12.0?") on stderr and reads the answer from stdin —
// only when stdin is a terminal. Without one (a script, a pipe, /dev/null) nobody is there to
// answer: it says so on stderr and the answer is "no", so a tool never acts on a question
// nobody saw. Only "y"/"yes" (any case) is yes. A stop signal while it waits (core/Interrupt.h)
// is a "no"; the caller may tell it from a typed one by interrupted().
[[nodiscard]] bool confirm(std::string_view question, const ConfirmPolicy& policy);

}  // namespace openflint::cli
