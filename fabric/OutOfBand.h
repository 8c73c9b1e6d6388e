// OutOfBand: fabric nodes reached through hosts' bus servers (by node GUID), the others in-band.
#pragma once

#include <memory>
#include <vector>

#include "fabric/FabricNode.h"
#include "fabric/NodeFirmware.h"
#include "fwops/Device.h"
#include "fwops/access/RemoteListing.h"
#include "mtcr/inband/MadChannel.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// Every host's devices (fwops/access/RemoteListing: L, then each opened and its flash queried), one
// thread per host. A host that cannot be reached carries its error; its nodes go in-band.
[[nodiscard]] std::vector<RemoteHostStatus> scan_hosts(const std::vector<RemoteHost>& hosts,
                                                       const DeviceOpenOptions& options = {});

// The inventory out-of-band first: a node whose GUID a listed device's flash holds (image/
// NodeGuid.h; the GUID the node's firmware reports in NodeInfo) is described from that device
// (its flash: PSID, FW version; no running firmware over the bus protocol) with `remote` set;
// every other node is inspected in-band as take_inventory does (kInventoryWorkers at a time).
// Node order is kept.
[[nodiscard]] std::vector<NodeFirmware> take_inventory(const std::vector<FabricNode>& nodes,
                                                       const std::vector<RemoteHostStatus>& hosts,
                                                       const std::shared_ptr<MadChannel>& channel);

// Without a fabric (ibfwmgr --no-fabric): every device the hosts serve that opened, as a node
// reached out-of-band (described as take_inventory describes a served node): its node GUID from
// the flash (0 when the flash holds none), the catalog's kind as its type, no LID, and its remote
// name as its description. Host order, then the order each host listed its devices.
[[nodiscard]] std::vector<NodeFirmware> served_inventory(const std::vector<RemoteHostStatus>& hosts);

// Opens a node's device the way the inventory reached it: the remote name out-of-band, else
// lid-N on `channel`.
[[nodiscard]] Result<Device> open_node_device(const NodeFirmware& node, const std::shared_ptr<MadChannel>& channel);

}  // namespace openflint
