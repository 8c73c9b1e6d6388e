// FabricFirmwareReport: ibfwmgr's tables and JSON documents for the fabric's firmware inventory and an
// update's summary; the web console's /api/fabric/firmware serves the inventory document.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "fabric/FabricUpdater.h"
#include "fabric/NodeFirmware.h"
#include "fabric/SystemNaming.h"
#include "fwops/access/RemoteListing.h"

namespace openflint::reports {

// ibfwmgr list --json: {"ok", "nodes", "hosts"}. Every node's row names its system (SystemNaming: the name map, else the NodeDescription).
[[nodiscard]] nlohmann::json inventory_json(const std::vector<NodeFirmware>& nodes, const SystemNaming& naming,
                                            const std::vector<RemoteHostStatus>& hosts = {});
void print_inventory(std::ostream& out, const std::vector<NodeFirmware>& nodes, const SystemNaming& naming);
[[nodiscard]] nlohmann::json update_json(const std::vector<NodeUpdate>& updates, double seconds,
                                         const SystemNaming& naming, const std::vector<RemoteHostStatus>& hosts = {});
void print_updates(std::ostream& out, const std::vector<NodeUpdate>& updates, double seconds,
                   const SystemNaming& naming);
// The dry run's plan (--dry-run): per node that would be updated, its path, the image (file,
// version, bytes), the burn's estimated requests and time, and how it would be activated.
void print_update_plan(std::ostream& out, const std::vector<NodeUpdate>& updates, const SystemNaming& naming);
// The dry run's totals: {"nodes", "requests", "seconds", "parallel"}, and its one line.
[[nodiscard]] nlohmann::json plan_total_json(const UpdatePlanTotal& total);
void print_plan_total(std::ostream& out, const UpdatePlanTotal& total);
// The SYSTEM cell: "NAME" or "NAME WHERE" for a node the map names, else its NodeDescription ("-": none).
[[nodiscard]] std::string system_cell(const FabricNode& node, const SystemNaming& naming);

}  // namespace openflint::reports
