// FabricListing: what ibls shows and the web console's Fabric page draws — systems (one per node),
// cables and the check against the topology file — built from a sweep, as text and JSON.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.h"
#include "fabric/CablingCheck.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/SystemNaming.h"

namespace openflint::reports {

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

struct FabricListing {
  std::vector<ListedSystem> systems;
  std::vector<ListedCable> cables;
  std::optional<std::vector<CablingFinding>> findings;  // with the check
};

// Which part of the fabric a listing keeps, and whether it checks the cabling.
struct FabricListingFilter {
  std::optional<std::uint64_t> guid;  // only this node (and its cables)
  std::string name;                   // only this system (and its cables)
  bool check = false;                 // compare with the naming's topology file (when it has one)
};

// The systems of `sweep` named through `naming`, with the running FW of `fw` (by node GUID), its
// cables, and with `filter.check` the topology check. NotFound when no system matches the filter.
// (`fw`: fabric/NodeFirmware running_fw_versions.)
[[nodiscard]] Result<FabricListing> make_fabric_listing(const SystemNaming& naming, const FabricSweep& sweep,
                                                        const std::map<std::uint64_t, std::string>& fw,
                                                        const FabricListingFilter& filter = {});

void print_listing(std::ostream& out, const FabricListing& listing);
// ibls --json: {"ok", "systems", "cables"[, "check": {"clean", "findings"}]}.
[[nodiscard]] nlohmann::json listing_json(const FabricListing& listing);
[[nodiscard]] std::string finding_text(const CablingFinding& f);

}  // namespace openflint::reports
