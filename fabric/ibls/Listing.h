// Listing: what ibls shows — systems (one per node), cables and the topology check — as text and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fabric/CablingCheck.h"
#include "fabric/FabricDiscovery.h"

namespace openflint::ibls {

struct ListedSystem {
  std::string name;    // system name (hosts map / NodeDescription), else the GUID
  std::string type;    // system type: the topology's, else the catalog part number
  FabricNode node;
  std::string device;  // catalog name from the NodeInfo device id
  std::string fw;      // running FW when the vendor path answered
};

struct ListedCable {
  Topology::Port a;
  Topology::Port b;
  FabricLink link;
};

struct Listing {
  std::vector<ListedSystem> systems;
  std::vector<ListedCable> cables;
  std::optional<std::vector<CablingFinding>> findings;  // with -e
};

void print_listing(std::ostream& out, const Listing& listing);
[[nodiscard]] nlohmann::json listing_json(const Listing& listing);
[[nodiscard]] std::string finding_text(const CablingFinding& f);

}  // namespace openflint::ibls
