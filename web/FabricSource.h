// FabricSource: where the web console's Fabric page gets the fabric — a sweep (nodes and cables),
// the nodes' running firmware, the firmware inventory and a health sample. The live one asks the
// fabric through a local umad port with the library calls ibls, ibfwmgr list and ibmon make; a
// test gives canned answers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/FabricUpdater.h"
#include "fabric/ImageSet.h"
#include "fabric/HealthCheck.h"
#include "fabric/NodeFirmware.h"
#include "fwops/access/RemoteListing.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// What ibfwmgr list reports: every node's firmware, and what each --hosts host answered.
struct FirmwareInventory {
  std::vector<NodeFirmware> nodes;
  std::vector<RemoteHostStatus> hosts;
};

class FabricSource {
 public:
  virtual ~FabricSource() = default;
  // The nodes and cables (discover_fabric_links). Io when the sweep fails.
  [[nodiscard]] virtual Result<FabricSweep> sweep() = 0;
  // The running FW of the nodes that answer vendor MADs, by node GUID (ibls's column).
  [[nodiscard]] virtual std::map<std::uint64_t, std::string> running_firmware(const std::vector<FabricNode>& nodes) = 0;
  // ibfwmgr list's inventory: out-of-band through the hosts first, the rest in-band.
  [[nodiscard]] virtual Result<FirmwareInventory> inventory() = 0;
  // One health sample of `sweep` (ibmon's: port states, PerfMgt counters, temperatures).
  [[nodiscard]] virtual Result<HealthSample> sample(const FabricSweep& sweep) = 0;
  // ibfwmgr update of `nodes` (from inventory()): fabric/FabricUpdater's update_fabric on the
  // source's MAD channel. A source that cannot burn (a test's canned fabric) is NotSupported.
  [[nodiscard]] virtual Result<std::vector<NodeUpdate>> update(const std::vector<NodeFirmware>& nodes, const ImageSet& images,
                                                               const FabricUpdateOptions& options) {
    (void)nodes, (void)images, (void)options;
    return make_error(ErrorCode::NotSupported, "this fabric source cannot update firmware");
  }
};

// The fabric seen from `ca`/`port` (empty/0: the first CA, its first active port); `hosts`: bus
// servers reaching nodes out-of-band (ibfwmgr --hosts). Its MAD channel and PerfMgt port open at
// first use and stay open (as ibmon --watch keeps them); each sweep discovers on a port of its own.
[[nodiscard]] std::unique_ptr<FabricSource> live_fabric_source(std::string ca, int port, std::vector<RemoteHost> hosts);

}  // namespace openflint
