// Subcommands: every flint subcommand, registered with CLI11 (the chosen one's runner goes to `run`).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "flint/Options.h"

namespace openflint::flint {

// Registers every subcommand and the burn-identity flags; `args` are main's positional slots (at
// least 3), `words` the variadic ones (wbne DATA..., sg PARAMS...), `run` receives the chosen command.
void add_subcommands(CLI::App& app, Options& options, std::function<int()>& run, std::vector<std::string>& args,
                     std::vector<std::string>& words);

}  // namespace openflint::flint
