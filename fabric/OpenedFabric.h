// OpenedFabric: the fabric as the in-band tools open it — its nodes, then one MAD channel they share.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabric/FabricNode.h"
#include "mtcr/inband/MadChannel.h"

namespace openflint {

struct OpenedFabric {
  std::vector<FabricNode> nodes;        // discover_fabric's
  std::shared_ptr<MadChannel> channel;  // every node's queries go through it (fabric/NodeFirmware.h)
};

// Discovery first (libibnetdisc, on a port of its own), then the shared channel on `ca`/`port`
// (empty/0: the first active port): what ibfwmgr, ibcon and `mst status` each composed. Either
// step's error (Io, NotFound, ...) as it comes.
[[nodiscard]] Result<OpenedFabric> open_fabric(const std::string& ca = "", int port = 0);

}  // namespace openflint
