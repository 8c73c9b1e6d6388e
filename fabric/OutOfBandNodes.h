// OutOfBandNodes: what the bus servers of a hosts file (--hosts) serve, by node GUID — ibls, ibmon and ibcon's out-of-band path.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fwops/access/RemoteListing.h"
#include "mtcr/remote/RemoteDeviceName.h"

namespace openflint {

struct OutOfBandNodes {
  std::vector<RemoteHostStatus> hosts;  // every host of the file, as scan_hosts left it
  // Each device a host listed whose hw id the catalog knows and whose flash holds a node GUID,
  // by that GUID (the GUID the node reports in NodeInfo): the node is read through its host.
  std::map<std::uint64_t, RemoteDeviceStatus> by_guid;

  // by_guid's device names, for read_node_registers / sample_health.
  [[nodiscard]] std::map<std::uint64_t, RemoteDeviceName> names() const;
  // One line per host that could not be reached: "host H unreachable (WHY): its nodes are reached in-band".
  [[nodiscard]] std::vector<std::string> warnings() const;
};

// The hosts file `file` read (fabric/HostsFile.h: InvalidArgument "FILE:LINE: why", NotFound/Io),
// then every host scanned in parallel (fabric/OutOfBand.h scan_hosts). An empty `file`: no hosts.
// A host that cannot be reached is not an error: its nodes go in-band (warnings()).
[[nodiscard]] Result<OutOfBandNodes> reach_hosts(const std::string& file);

// The same on hosts already scanned.
[[nodiscard]] OutOfBandNodes out_of_band_nodes(std::vector<RemoteHostStatus> hosts);

}  // namespace openflint
