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
  std::string fw;      // running FW when the vendor path answered (out-of-band: the flash's)
  std::string psid;    // when known (running: MGIR in-band; the flash's out-of-band)
  std::string path;    // how the firmware facts were read: "in-band", "out-of-band HOST"; "" not read
};

// What a listing knows of a node's firmware, by node GUID (ibls: fabric/NodeFirmware in-band,
// a host's bus server out-of-band).
struct ListedFirmware {
  std::string version;
  std::string psid;
  std::string path;  // "in-band" or "out-of-band HOST"
};

// The sections ibls prints (its keys): systems (system names and types), devices (nodes: type,
// GUID, LID, device), cables (the cabling), firmware (PSID, version, path). None given: the
// classic listing (systems with their devices and firmware, and cables).
struct ListingSections {
  bool systems = false;
  bool devices = false;
  bool cables = false;
  bool firmware = false;
  [[nodiscard]] bool classic() const { return !systems && !devices && !cables && !firmware; }
};

// Keys as ibls takes them: each argument one or more of systems, devices, cables, firmware
// separated by commas, case-insensitive. InvalidArgument for another word.
[[nodiscard]] Result<ListingSections> parse_listing_keys(const std::vector<std::string>& keys);

// Whether `filter` (ibls -i DEVICE) names the node's device: case-insensitively equal to the
// catalog name ("ConnectX-4"), the catalog part number ("MT27700"), or the NodeInfo device id in
// decimal with or without "MT" ("MT4115", "4115": the seeds' "MT23108").
[[nodiscard]] bool device_matches(std::string_view filter, const FabricNode& node);

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
  std::string device;                 // only nodes of this device (device_matches; and their cables)
  bool check = false;                 // compare with the naming's topology file (when it has one)
};

// The systems of `sweep` named through `naming`, with the running FW of `fw` (by node GUID), its
// cables, and with `filter.check` the topology check. NotFound when no system matches the filter.
// (`fw`: fabric/NodeFirmware running_fw_versions.)
[[nodiscard]] Result<FabricListing> make_fabric_listing(const SystemNaming& naming, const FabricSweep& sweep,
                                                        const std::map<std::uint64_t, std::string>& fw,
                                                        const FabricListingFilter& filter = {});
// The same with PSIDs and paths (ibls).
[[nodiscard]] Result<FabricListing> make_fabric_listing(const SystemNaming& naming, const FabricSweep& sweep,
                                                        const std::map<std::uint64_t, ListedFirmware>& fw,
                                                        const FabricListingFilter& filter = {});

void print_listing(std::ostream& out, const FabricListing& listing, const ListingSections& sections = {});
// ibls --json: {"ok", "systems", "cables"[, "check": {"clean", "findings"}]}; with keys, the
// sections they name: "systems" [{"name", "type"}], "devices" [{"name", "node_type", "guid",
// "lid", "device_id", "device", "description", "local"}], "cables", "firmware" [{"name", "guid",
// "device", "psid", "fw_version", "path"}] (and "check" with -e).
[[nodiscard]] nlohmann::json listing_json(const FabricListing& listing, const ListingSections& sections = {});
[[nodiscard]] std::string finding_text(const CablingFinding& f);

}  // namespace openflint::reports
