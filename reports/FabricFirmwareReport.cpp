// FabricFirmwareReport: fixed-width tables (one row per node) and the matching JSON.
#include "reports/FabricFirmwareReport.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "cli/TextArgs.h"

namespace openflint::reports {
namespace {

std::string fw_version_text(const std::optional<FwVersion>& v) { return v ? v->to_string() : "N/A"; }

nlohmann::json fw_null_if_empty(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }

// "system": where the node sits (docs/fabric-topology.md): its name, the device or port within it,
// where the name came from, and the topology file's type for it.
nlohmann::json fw_system_json(const FabricNode& node, const SystemNaming& naming) {
  const auto loc = naming.locate(node);
  return {{"name", fw_null_if_empty(loc.system)},
          {"within", fw_null_if_empty(loc.within)},
          {"source", loc.source == SystemLocation::Source::None ? nlohmann::json(nullptr) : nlohmann::json(to_string(loc.source))},
          {"type", fw_null_if_empty(naming.declared_type(node))}};
}

nlohmann::json fw_node_json(const NodeFirmware& n, const SystemNaming& naming) {
  return {{"system", fw_system_json(n.node, naming)},
          {"type", to_string(n.node.type)},
          {"guid", openflint::guid_text(n.node.guid)},
          {"lid", n.node.lid},
          {"description", n.node.description},
          {"local", n.node.local},
          {"vendor_access", n.vendor_access},
          {"device", n.device.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.device)},
          {"psid", n.psid.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.psid)},
          {"psid_source", n.psid_source.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.psid_source)},
          {"fw_version", n.fw_version ? nlohmann::json(n.fw_version->to_string()) : nlohmann::json(nullptr)},
          {"flash_fw_version", n.flash_fw_version ? nlohmann::json(n.flash_fw_version->to_string()) : nlohmann::json(nullptr)},
          {"recovery", n.recovery},
          {"path", n.path()},
          {"note", n.note}};
}

// What each --hosts host answered: reachable or why not, and the devices it listed by GUID.
nlohmann::json fw_hosts_json(const std::vector<RemoteHostStatus>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& h : hosts) {
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : h.devices)
      devices.push_back({{"name", d.name},
                         {"guid", d.node_guid ? nlohmann::json(openflint::guid_text(*d.node_guid)) : nlohmann::json(nullptr)},
                         {"error", d.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.error)}});
    list.push_back({{"host", to_string(h.host)},
                    {"reachable", h.error.empty()},
                    {"error", h.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(h.error)},
                    {"devices", devices}});
  }
  return list;
}

}  // namespace

std::string system_cell(const FabricNode& node, const SystemNaming& naming) {
  const auto loc = naming.locate(node);
  if (loc.source == SystemLocation::Source::Map) return loc.within.empty() ? loc.system : loc.system + " " + loc.within;
  return node.description.empty() ? "-" : node.description;
}

nlohmann::json inventory_json(const std::vector<NodeFirmware>& nodes, const SystemNaming& naming,
                              const std::vector<RemoteHostStatus>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& n : nodes) list.push_back(fw_node_json(n, naming));
  return {{"ok", true}, {"nodes", list}, {"hosts", fw_hosts_json(hosts)}};
}

void print_inventory(std::ostream& out, const std::vector<NodeFirmware>& nodes, const SystemNaming& naming) {
  std::size_t w = 12;
  for (const auto& n : nodes) w = std::max(w, system_cell(n.node, naming).size());
  const int sw = static_cast<int>(w);
  out << cli::table_row({{"SYSTEM", sw}, {"TYPE", 6}, {"LID", 5}, {"GUID", 18}, {"DEVICE", 12}, {"PSID", 16}, {"RUNNING FW", 12}, {"FLASH FW", 12}, {"PATH", 28}, {"NOTE", 0}});
  for (const auto& n : nodes) {
    std::string note = n.note;
    if (n.fw_version && n.flash_fw_version && *n.fw_version != *n.flash_fw_version && note.empty())
      note = "flash holds " + n.flash_fw_version->to_string() + ": runs after a reset";
    out << cli::table_row({{system_cell(n.node, naming), sw},
                {to_string(n.node.type), 6},
                {std::to_string(n.node.lid), 5},
                {openflint::guid_text(n.node.guid), 18},
                {n.device.empty() ? "-" : n.device, 12},
                {n.psid.empty() ? "-" : n.psid, 16},
                {fw_version_text(n.fw_version), 12},
                {fw_version_text(n.flash_fw_version), 12},
                {n.path(), 28},
                {n.reachable() ? note : "no vendor access" + std::string(n.node.local ? " (local node)" : ""), 0}});
  }
}

nlohmann::json update_json(const std::vector<NodeUpdate>& updates, double seconds, const SystemNaming& naming,
                           const std::vector<RemoteHostStatus>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  bool ok = true;
  for (const auto& u : updates) {
    ok = ok && u.status != NodeUpdateStatus::Failed && u.status != NodeUpdateStatus::NoImage &&
         u.status != NodeUpdateStatus::NotStarted;
    nlohmann::json j = fw_node_json(u.before, naming);
    j["status"] = to_string(u.status);
    j["message"] = u.message;
    j["image"] = u.image.empty() ? nlohmann::json(nullptr) : nlohmann::json(u.image);
    j["image_version"] = u.image_version ? nlohmann::json(u.image_version->to_string()) : nlohmann::json(nullptr);
    j["identity_from"] = u.identity_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(u.identity_from);
    j["reset"] = u.reset_done;
    j["running_after"] = nullptr;
    if (u.running_after && u.running_after->image && u.running_after->image->fw_version)
      j["running_after"] = u.running_after->image->fw_version->to_string();
    j["activation"] = u.activation == NodeActivation::None ? nlohmann::json(nullptr) : nlohmann::json(to_string(u.activation));
    j["plan"] = nullptr;
    if (u.plan)
      j["plan"] = {{"image_bytes", u.plan->image_bytes},
                   {"requests", u.plan->requests},
                   {"request_unit", u.plan->request_unit},
                   {"can_activate", u.plan->can_activate},
                   {"activation", u.plan->activation},
                   {"round_trip_us", u.plan->round_trip_us ? nlohmann::json(*u.plan->round_trip_us) : nlohmann::json(nullptr)},
                   {"seconds", u.plan->seconds}};
    j["mads"] = u.mads;
    j["seconds"] = u.seconds;
    j["attempts"] = u.attempts;
    j["journal_before"] = u.journaled ? nlohmann::json(to_string(u.journaled->state)) : nlohmann::json(nullptr);
    list.push_back(j);
  }
  return {{"ok", ok}, {"seconds", seconds}, {"nodes", list}, {"hosts", fw_hosts_json(hosts)}};
}

void print_updates(std::ostream& out, const std::vector<NodeUpdate>& updates, double seconds,
                   const SystemNaming& naming) {
  std::size_t w = 12;
  for (const auto& u : updates) w = std::max(w, system_cell(u.before.node, naming).size());
  const int sw = static_cast<int>(w);
  out << cli::table_row({{"SYSTEM", sw}, {"LID", 5}, {"DEVICE", 12}, {"PSID", 16}, {"OLD FW", 12}, {"NEW FW", 12}, {"STATUS", 11}, {"MADS", 8}, {"SECONDS", 8}, {"PATH", 28}, {"NOTE", 0}});
  for (const auto& u : updates) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.2f", u.seconds);
    std::string note = u.message;  // the JSON keeps the whole message
    if (u.status == NodeUpdateStatus::NoAccess)
      note = "no vendor access" + std::string(u.before.node.local ? " (local node)" : " (vendor MADs not answered)");
    const auto runs = fw_version_text(u.running_after && u.running_after->image ? u.running_after->image->fw_version : std::nullopt);
    if (u.reset_done) note = (u.message.empty() ? "reset" : u.message) + ", runs " + runs;
    else if (u.activation == NodeActivation::Running) note = "runs " + runs;
    out << cli::table_row({{system_cell(u.before.node, naming), sw},
                {std::to_string(u.before.node.lid), 5},
                {u.before.device.empty() ? "-" : u.before.device, 12},
                {u.before.psid.empty() ? "-" : u.before.psid, 16},
                {fw_version_text(u.before.fw_version), 12},
                {fw_version_text(u.image_version), 12},
                {to_string(u.status), 11},
                {std::to_string(u.mads), 8},
                {secs, 8},
                {u.before.path(), 28},
                {note, 0}});
  }
  char total[32];
  std::snprintf(total, sizeof total, "%.2f", seconds);
  out << "-I- " << updates.size() << " nodes in " << total << " s\n";
}

void print_update_plan(std::ostream& out, const std::vector<NodeUpdate>& updates, const SystemNaming& naming) {
  std::size_t w = 12;
  for (const auto& u : updates) w = std::max(w, system_cell(u.before.node, naming).size());
  const int sw = static_cast<int>(w);
  out << "-I- dry run: nothing was written\n";
  out << cli::table_row({{"SYSTEM", sw}, {"LID", 5}, {"PATH", 28}, {"IMAGE", 24}, {"VERSION", 12}, {"BYTES", 9}, {"REQUESTS", 18}, {"SECONDS", 9}, {"ACTIVATION", 0}});
  for (const auto& u : updates) {
    if (!u.plan) continue;
    char secs[24];
    std::snprintf(secs, sizeof secs, "~%.1f", u.plan->seconds);
    out << cli::table_row({{system_cell(u.before.node, naming), sw},
                {std::to_string(u.before.node.lid), 5},
                {u.before.path(), 28},
                {u.image, 24},
                {fw_version_text(u.image_version), 12},
                {std::to_string(u.plan->image_bytes), 9},
                {"~" + std::to_string(u.plan->requests) + (u.plan->request_unit == "MADs" ? " MADs" : " requests"), 18},
                {secs, 9},
                {u.plan->activation, 0}});
  }
}

nlohmann::json plan_total_json(const UpdatePlanTotal& total) {
  return {{"nodes", total.nodes}, {"requests", total.requests}, {"seconds", total.seconds}, {"parallel", total.parallel}};
}

void print_plan_total(std::ostream& out, const UpdatePlanTotal& total) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", total.seconds);
  out << "-I- plan: " << total.nodes << " node(s) to burn, ~" << total.requests << " requests, ~" << secs
      << " s at --parallel " << total.parallel << " (each node's requests x its measured round trip)\n";
}

}  // namespace openflint::reports
