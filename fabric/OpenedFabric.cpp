// OpenedFabric: discover_fabric, then MadChannel::open, in that order.
#include "fabric/OpenedFabric.h"

#include "fabric/FabricDiscovery.h"

namespace openflint {

Result<OpenedFabric> open_fabric(const std::string& ca, int port) {
  OpenedFabric out;
  OF_ASSIGN(out.nodes, discover_fabric(ca, port));
  OF_ASSIGN(out.channel, MadChannel::open(ca, port));
  return out;
}

}  // namespace openflint
