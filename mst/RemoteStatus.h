// RemoteStatus: `mst status --remote HOST...` — the devices other hosts serve, as `mst status` shows local ones.
#pragma once

#include <string>
#include <vector>

#include "mst/Commands.h"

namespace openflint::mst {

// Lists every host's devices (each opened by its remote name, its flash queried). Exit 0 when
// every host answered; kFailed when one could not be reached (the others are still listed);
// kUsage for a HOST that does not parse.
[[nodiscard]] int run_remote_status(const std::vector<std::string>& hosts, const Common& common);

}  // namespace openflint::mst
