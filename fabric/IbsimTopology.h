// IbsimTopology: a Topology written as an ibsim topology file (node names = system names).
#pragma once

#include <string>

#include "core/Result.h"
#include "fabric/Topology.h"

namespace openflint {

// One ibsim node per system (a switch or an HCA by its catalog type, NodeInfo device id from the
// catalog, vendor 0x02c9), named with the system name — ibsim makes that its NodeDescription.
// NotFound when a system type is not in the catalog.
[[nodiscard]] Result<std::string> ibsim_topology_text(const Topology& topology);

}  // namespace openflint
