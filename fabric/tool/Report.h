// Report: ibfwmgr's tables and JSON documents for the inventory and the update summary.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "fabric/FabricUpdater.h"
#include "fabric/NodeFirmware.h"
#include "fwops/RemoteListing.h"

namespace openflint::fabriccli {

[[nodiscard]] nlohmann::json inventory_json(const std::vector<NodeFirmware>& nodes,
                                            const std::vector<RemoteHostStatus>& hosts = {});
void print_inventory(std::ostream& out, const std::vector<NodeFirmware>& nodes);
[[nodiscard]] nlohmann::json update_json(const std::vector<NodeUpdate>& updates, double seconds,
                                         const std::vector<RemoteHostStatus>& hosts = {});
void print_updates(std::ostream& out, const std::vector<NodeUpdate>& updates, double seconds);

}  // namespace openflint::fabriccli
