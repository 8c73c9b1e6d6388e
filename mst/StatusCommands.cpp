// StatusCommands: placeholder on the base branch (replaced by the real commands before landing).
#include "mst/Commands.h"

namespace openflint::mst {

void add_status_commands(CLI::App&, std::function<int()>&, const Common&) {}

}  // namespace openflint::mst
