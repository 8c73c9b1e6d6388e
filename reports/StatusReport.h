// StatusReport: how `mst status`, `mst start` and `mst stop` print (text tables and JSON).
#pragma once

#include <filesystem>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/NodeFirmware.h"
#include "fwops/access/DeviceListing.h"
#include "fwops/access/HostAccess.h"
#include "fwops/access/MstLinks.h"

namespace openflint::reports {

[[nodiscard]] nlohmann::json device_json(const PciDeviceStatus& d);
[[nodiscard]] nlohmann::json node_json(const NodeFirmware& n);
[[nodiscard]] nlohmann::json host_json(const HostAccess& h);
[[nodiscard]] nlohmann::json links_json(const std::vector<MstLink>& links);

// One row per function; `verbose` adds ids, access methods with reasons, driver, NUMA.
void print_devices(std::ostream& out, const std::filesystem::path& sysfs_root,
                   const std::vector<PciDeviceStatus>& devices, bool verbose);
void print_nodes(std::ostream& out, const std::vector<NodeFirmware>& nodes);
void print_host(std::ostream& out, const HostAccess& h, const std::vector<PciDeviceStatus>& devices);
void print_links(std::ostream& out, const std::filesystem::path& dir, const std::vector<MstLink>& links);

}  // namespace openflint::reports
