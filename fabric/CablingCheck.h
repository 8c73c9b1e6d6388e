// CablingCheck: the fabric as discovered against the topology file: missing, miswired and extra cables, unknown systems.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fabric/FabricDiscovery.h"
#include "fabric/SystemNameMap.h"
#include "fabric/Topology.h"

namespace openflint {

struct CablingFinding {
  enum class Kind {
    MissingSystem,     // a system of the topology was not found on the fabric
    UnexpectedSystem,  // a node whose system name the topology does not know
    MissingCable,      // a declared cable: neither end is connected to anything
    Miswired,          // a declared port is connected to another system or port than declared
    ExtraCable,        // a cable between two known systems at ports the topology leaves free
  };
  Kind kind = Kind::MissingCable;
  Topology::Port port;                    // the port concerned (port 0 for the system kinds)
  std::optional<Topology::Port> expected;  // what the topology declares there
  std::optional<Topology::Port> found;     // what the fabric has there (UnexpectedSystem: where it is plugged in)
  std::uint64_t guid = 0;                 // the node, for the system kinds (UnexpectedSystem)
};

[[nodiscard]] constexpr const char* to_string(CablingFinding::Kind k) {
  switch (k) {
    case CablingFinding::Kind::MissingSystem: return "missing-system";
    case CablingFinding::Kind::UnexpectedSystem: return "unexpected-system";
    case CablingFinding::Kind::MissingCable: return "missing-cable";
    case CablingFinding::Kind::Miswired: return "miswired";
    case CablingFinding::Kind::ExtraCable: return "extra-cable";
  }
  return "?";
}

// Compares every declared cable with the discovered links (nodes named through `names`).
// A swap of two cables shows as one Miswired finding per port involved; the cables of a
// missing system are reported as missing too. Sorted by kind, then system and port.
[[nodiscard]] std::vector<CablingFinding> check_cabling(const Topology& topology, const FabricSweep& fabric,
                                                        const SystemNameMap& names);

}  // namespace openflint
