// Confirm: the yes/no question flint asks before a risky step (-y/--yes, --no, a terminal or not).
#pragma once

#include <string>

#include "flint/Options.h"

namespace openflint::flint {

// `warning` is printed as "-W- warning. Continue? (y/N)" on a terminal. --yes answers yes and
// --no answers no without asking; without a terminal on stdin the answer is no (rerun with
// --yes), said on stderr. The caller exits cli::kDeclined on false.
[[nodiscard]] bool confirm(const Options& options, const std::string& warning);

}  // namespace openflint::flint
