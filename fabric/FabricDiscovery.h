// FabricDiscovery: every node of the fabric, found with directed-route SMPs (libibnetdisc).
#pragma once

#include <string>
#include <vector>

#include "core/Result.h"
#include "fabric/FabricLink.h"
#include "fabric/FabricNode.h"

namespace openflint {

// Sweeps the fabric from `ca`/`port` (empty/0: the first active port). Nodes without a LID
// (no SM ran yet) are listed with LID 0. Io when the sweep fails.
[[nodiscard]] Result<std::vector<FabricNode>> discover_fabric(const std::string& ca = "", int port = 0);

// The nodes (as discover_fabric lists them) and the cables between them, each cable once.
struct FabricSweep {
  std::vector<FabricNode> nodes;
  std::vector<FabricLink> links;
};
[[nodiscard]] Result<FabricSweep> discover_fabric_links(const std::string& ca = "", int port = 0);

}  // namespace openflint
