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
    WrongType,         // a system whose declared catalog type is another device than the node's
    MissingCable,      // a declared cable: neither end is connected to anything
    Miswired,          // a declared port is connected to another system or port than declared
    ExtraCable,        // a cable between two known systems at ports the topology leaves free
  };
  Kind kind = Kind::MissingCable;
  Topology::Port port;                    // the port concerned (port 0 for the system kinds)
  std::optional<Topology::Port> expected;  // what the topology declares there
  std::optional<Topology::Port> found;     // what the fabric has there (UnexpectedSystem: where it is plugged in)
  std::uint64_t guid = 0;                 // the node, for UnexpectedSystem and WrongType
  std::string declared_type;              // WrongType: the file's type
  std::string found_type;                 // WrongType: the node's, as a catalog part number
};

[[nodiscard]] constexpr const char* to_string(CablingFinding::Kind k) {
  switch (k) {
    case CablingFinding::Kind::MissingSystem: return "missing-system";
    case CablingFinding::Kind::UnexpectedSystem: return "unexpected-system";
    case CablingFinding::Kind::WrongType: return "wrong-type";
    case CablingFinding::Kind::MissingCable: return "missing-cable";
    case CablingFinding::Kind::Miswired: return "miswired";
    case CablingFinding::Kind::ExtraCable: return "extra-cable";
  }
  return "?";
}

// Compares every declared cable with the discovered links (nodes named through `names`), and
// each found system's type with its node's NodeInfo device id when the declared type is a catalog
// part number or model (other type words are not checked).
// A swap of two cables shows as one Miswired finding per port involved; the cables of a
// missing system are reported as missing too. Sorted by kind, then system and port.
[[nodiscard]] std::vector<CablingFinding> check_cabling(const Topology& topology, const FabricSweep& fabric,
                                                        const SystemNameMap& names);

}  // namespace openflint
