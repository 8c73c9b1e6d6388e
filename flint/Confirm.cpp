// Confirm: flint's questions through the one rule every tool shares (cli/Confirm.h).
#include "flint/Confirm.h"

#include "cli/Confirm.h"

namespace openflint::flint {

bool confirm(const Options& options, const std::string& warning) {
  return confirm(warning + ". Continue?", cli::ConfirmPolicy{options.yes, options.no});
}

}  // namespace openflint::flint
