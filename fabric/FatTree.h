// FatTree: the topology of a two-level fat tree (spines, leaves, hosts), as ibtopogen writes it.
#pragma once

#include <string>

#include "core/Result.h"
#include "fabric/Topology.h"

namespace openflint {

struct FatTreeSpec {
  int spines = 2;
  int leaves = 4;
  int hosts_per_leaf = 2;
  int leaf_ports = 0;   // 0: the leaf switch type's port count from the catalog
  int spine_ports = 0;  // 0: the spine switch type's port count
  std::string spine_name = "spine-%d";  // "%d" is replaced by the number (from 1)
  std::string leaf_name = "leaf-%d";
  std::string host_name = "host-%d";  // hosts are numbered across the fabric: leaf 1's first
  std::string switch_type = "MT52000";  // catalog part number (Switch-IB) or sim model
  std::string host_type = "MT27700";    // ConnectX-4
};

// Leaf L's ports 1..H go to its hosts (host (L-1)*H+i, port 1), ports H+1..H+S to spine 1..S
// (that spine's port L). InvalidArgument when the numbers do not fit the switches' ports, a
// pattern lacks exactly one "%d", or a type is not a catalog switch/HCA.
[[nodiscard]] Result<Topology> make_fat_tree(const FatTreeSpec& spec);

}  // namespace openflint
