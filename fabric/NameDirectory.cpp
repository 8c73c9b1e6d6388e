// NameDirectory: joining the sweep, the bus servers' devices and the naming files into entries.
#include "fabric/NameDirectory.h"

#include <set>

#include "fabric/FabricDiscovery.h"
#include "fabric/OutOfBand.h"

namespace openflint {
namespace {

std::string entry_name(const std::string& system, std::uint64_t guid) {
  if (!system.empty() && check_system_name(system)) return system;
  return guid_text(guid);
}

bool blank_free(const std::string& s) { return s.find_first_of(" \t") == std::string::npos && !s.empty(); }

}  // namespace

NameDirectory NameDirectory::from_entries(std::vector<NameEntry> entries, std::vector<std::string> problems) {
  NameDirectory d;
  d.problems_ = std::move(problems);
  if (entries.size() > kNameMaxEntries) {
    d.problems_.push_back(std::to_string(entries.size()) + " nodes: only the first " + std::to_string(kNameMaxEntries) + " are named");
    entries.resize(kNameMaxEntries);
  }
  std::map<std::string, int, std::less<>> count;
  for (const auto& e : entries) ++count[e.name];
  for (auto& e : entries) {
    if (count[e.name] < 2) continue;
    const std::string shared = e.name;
    const std::string tail = e.guid != 0 ? guid_text(e.guid) : e.device;
    std::string renamed = shared + "/" + tail;
    if (!check_system_name(renamed)) renamed = shared + "/" + std::to_string(d.ambiguous_[shared].size() + 1);
    d.ambiguous_[shared].push_back(renamed);
    e.name = renamed;
  }
  d.entries_ = std::move(entries);
  return d;
}

Result<NameEntry> NameDirectory::lookup(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return e;
  if (const auto shared = ambiguous_.find(name); shared != ambiguous_.end()) {
    std::string names;
    for (const auto& n : shared->second) names += (names.empty() ? "" : ", ") + n;
    return make_error(ErrorCode::InvalidArgument, std::string(kNameAmbiguous) + ": " + std::string(name) + " is " + names);
  }
  return make_error(ErrorCode::NotFound, std::string(kNameNotFound) + ": no node named " + std::string(name));
}

Result<NameEntry> NameDirectory::by_guid(std::uint64_t guid) const {
  for (const auto& e : entries_)
    if (e.guid == guid && guid != 0) return e;
  return make_error(ErrorCode::NotFound, std::string(kNameNotFound) + ": no node with GUID " + guid_text(guid));
}

Result<NameEntry> NameDirectory::by_lid(std::uint16_t lid) const {
  for (const auto& e : entries_)
    if (e.lid == lid && lid != 0) return e;
  return make_error(ErrorCode::NotFound, std::string(kNameNotFound) + ": no node with LID " + std::to_string(lid));
}

NameDirectory join_names(const std::vector<FabricNode>& nodes, const std::vector<RemoteHostStatus>& hosts,
                         const SystemNaming& naming, std::vector<std::string> problems) {
  std::vector<NameEntry> entries;
  std::set<std::uint64_t> swept;
  auto add = [&](NameEntry e) {
    if (!blank_free(e.device) || e.device.size() > kNameMaxDeviceBytes ||
        (!e.remote.empty() && (!blank_free(e.remote) || e.remote.size() > kNameMaxDeviceBytes))) {
      problems.push_back(e.name + ": its device name '" + e.device.substr(0, 64) + "' cannot be carried (blanks or too long)");
      return;
    }
    entries.push_back(std::move(e));
  };
  for (const auto& node : nodes) {
    swept.insert(node.guid);
    NameEntry e{.name = entry_name(naming.locate(node).system, node.guid), .guid = node.guid, .lid = node.lid,
                .device = node.device_name(), .remote = {}};
    for (const auto& h : hosts)
      for (const auto& d : h.devices)
        if (d.node_guid && *d.node_guid == node.guid && d.info != nullptr) e.device = e.remote = d.name;
    add(std::move(e));
  }
  for (const auto& h : hosts) {
    if (!h.error.empty()) problems.push_back("host " + to_string(h.host) + ": " + h.error);
    for (const auto& d : h.devices) {
      if (d.info == nullptr) {
        problems.push_back(d.name + ": " + d.error);
        continue;
      }
      if (!d.node_guid || swept.contains(*d.node_guid)) continue;
      FabricNode alone{.type = FabricNode::Type::Hca, .guid = *d.node_guid, .lid = 0, .description = {},
                       .vendor_id = 0, .device_id = 0, .local = false};
      add(NameEntry{.name = entry_name(naming.locate(alone).system, *d.node_guid), .guid = *d.node_guid, .lid = 0,
                    .device = d.name, .remote = d.name});
    }
  }
  return NameDirectory::from_entries(std::move(entries), std::move(problems));
}

NameDirectory collect_names(const NameSources& sources) {
  std::vector<std::string> problems;
  auto naming = SystemNaming::load(sources.naming);
  if (!naming) problems.push_back("naming files: " + naming.error().message());
  const std::vector<RemoteHostStatus> hosts = scan_hosts(sources.hosts);
  std::vector<FabricNode> nodes;
  if (sources.sweep) {
    auto swept = discover_fabric(sources.ca, sources.port);
    if (swept) {
      nodes = std::move(*swept);
    } else {
      problems.push_back("fabric sweep: " + swept.error().message());
    }
  }
  return join_names(nodes, hosts, naming ? *naming : SystemNaming{}, std::move(problems));
}

}  // namespace openflint
