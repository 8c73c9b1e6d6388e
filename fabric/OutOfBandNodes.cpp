// OutOfBandNodes: a hosts file read and scanned, and its devices indexed by the node GUID their flash holds.
#include "fabric/OutOfBandNodes.h"

#include "fabric/HostsFile.h"
#include "fabric/OutOfBand.h"

namespace openflint {

std::map<std::uint64_t, RemoteDeviceName> OutOfBandNodes::names() const {
  std::map<std::uint64_t, RemoteDeviceName> out;
  for (const auto& [guid, d] : by_guid) out.emplace(guid, d.remote);
  return out;
}

std::vector<std::string> OutOfBandNodes::warnings() const {
  std::vector<std::string> out;
  for (const auto& h : hosts)
    if (!h.error.empty()) out.push_back("host " + to_string(h.host) + " unreachable (" + h.error + "): its nodes are reached in-band");
  return out;
}

OutOfBandNodes out_of_band_nodes(std::vector<RemoteHostStatus> hosts) {
  OutOfBandNodes out;
  out.hosts = std::move(hosts);
  for (const auto& h : out.hosts)
    for (const auto& d : h.devices)
      if (d.node_guid && d.info != nullptr) out.by_guid.emplace(*d.node_guid, d);  // the first host wins
  return out;
}

Result<OutOfBandNodes> reach_hosts(const std::string& file) {
  if (file.empty()) return OutOfBandNodes{};
  OF_ASSIGN(const std::vector<RemoteHost> hosts, read_hosts_file(file));
  return out_of_band_nodes(scan_hosts(hosts));
}

}  // namespace openflint
