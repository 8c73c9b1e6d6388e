// IbsimTopology: the ibsim file (inband-ibsim.md: "Switch N"/"Hca N" blocks with "[port] \"remote\"[port]").
#include "fabric/IbsimTopology.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "fabric/SystemType.h"

namespace openflint {

Result<std::string> ibsim_topology_text(const Topology& topology) {
  std::ostringstream t;
  for (const auto& system : topology.systems()) {
    OF_ASSIGN(const DeviceInfo* info, find_system_type(system.type));
    std::vector<std::pair<int, Topology::Port>> ends;
    for (const auto& c : topology.cables()) {
      if (c.a.system == system.name) ends.emplace_back(c.a.port, c.b);
      if (c.b.system == system.name) ends.emplace_back(c.b.port, c.a);
    }
    std::sort(ends.begin(), ends.end());
    int ports = info->port_count;
    for (const auto& e : ends) ports = std::max(ports, e.first);
    char ids[48];
    std::snprintf(ids, sizeof ids, "vendid=0x02c9\ndevid=0x%04x\n", info->pci_device_id);
    t << ids << (info->kind == DeviceKind::Switch ? "Switch " : "Hca ") << std::max(ports, 1) << " \""
      << system.name << "\"\n";
    for (const auto& [port, remote] : ends) t << '[' << port << "] \"" << remote.system << "\"[" << remote.port << "]\n";
    t << '\n';
  }
  return t.str();
}

}  // namespace openflint
