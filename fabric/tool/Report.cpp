// Report: fixed-width tables (one row per node) and the matching JSON.
#include "cli/TextArgs.h"
#include "fabric/tool/Report.h"

#include <cstdio>
#include <string>

namespace openflint::fabriccli {
namespace {

std::string guid_text(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

std::string version_text(const std::optional<FwVersion>& v) { return v ? v->to_string() : "N/A"; }

nlohmann::json node_json(const NodeFirmware& n) {
  return {{"type", to_string(n.node.type)},
          {"guid", guid_text(n.node.guid)},
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
nlohmann::json hosts_json(const std::vector<RemoteHostStatus>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& h : hosts) {
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : h.devices)
      devices.push_back({{"name", d.name},
                         {"guid", d.node_guid ? nlohmann::json(guid_text(*d.node_guid)) : nlohmann::json(nullptr)},
                         {"error", d.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.error)}});
    list.push_back({{"host", to_string(h.host)},
                    {"reachable", h.error.empty()},
                    {"error", h.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(h.error)},
                    {"devices", devices}});
  }
  return list;
}

}  // namespace

nlohmann::json inventory_json(const std::vector<NodeFirmware>& nodes, const std::vector<RemoteHostStatus>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& n : nodes) list.push_back(node_json(n));
  return {{"ok", true}, {"nodes", list}, {"hosts", hosts_json(hosts)}};
}

void print_inventory(std::ostream& out, const std::vector<NodeFirmware>& nodes) {
  out << cli::table_row({{"TYPE", 6}, {"LID", 5}, {"GUID", 18}, {"DESCRIPTION", 12}, {"DEVICE", 12}, {"PSID", 16}, {"RUNNING FW", 12}, {"FLASH FW", 12}, {"PATH", 28}, {"NOTE", 0}});
  for (const auto& n : nodes) {
    std::string note = n.note;
    if (n.fw_version && n.flash_fw_version && *n.fw_version != *n.flash_fw_version && note.empty())
      note = "flash holds " + n.flash_fw_version->to_string() + ": runs after a reset";
    out << cli::table_row({{to_string(n.node.type), 6},
                {std::to_string(n.node.lid), 5},
                {guid_text(n.node.guid), 18},
                {n.node.description, 12},
                {n.device.empty() ? "-" : n.device, 12},
                {n.psid.empty() ? "-" : n.psid, 16},
                {version_text(n.fw_version), 12},
                {version_text(n.flash_fw_version), 12},
                {n.path(), 28},
                {n.reachable() ? note : "no vendor access" + std::string(n.node.local ? " (local node)" : ""), 0}});
  }
}

nlohmann::json update_json(const std::vector<NodeUpdate>& updates, double seconds,
                           const std::vector<RemoteHostStatus>& hosts) {
  nlohmann::json list = nlohmann::json::array();
  bool ok = true;
  for (const auto& u : updates) {
    ok = ok && u.status != NodeUpdateStatus::Failed && u.status != NodeUpdateStatus::NoImage;
    nlohmann::json j = node_json(u.before);
    j["status"] = to_string(u.status);
    j["message"] = u.message;
    j["image"] = u.image.empty() ? nlohmann::json(nullptr) : nlohmann::json(u.image);
    j["image_version"] = u.image_version ? nlohmann::json(u.image_version->to_string()) : nlohmann::json(nullptr);
    j["identity_from"] = u.identity_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(u.identity_from);
    j["reset"] = u.reset_done;
    j["running_after"] = nullptr;
    if (u.running_after && u.running_after->image && u.running_after->image->fw_version)
      j["running_after"] = u.running_after->image->fw_version->to_string();
    j["mads"] = u.mads;
    j["seconds"] = u.seconds;
    list.push_back(j);
  }
  return {{"ok", ok}, {"seconds", seconds}, {"nodes", list}, {"hosts", hosts_json(hosts)}};
}

void print_updates(std::ostream& out, const std::vector<NodeUpdate>& updates, double seconds) {
  out << cli::table_row({{"LID", 5}, {"DEVICE", 12}, {"PSID", 16}, {"OLD FW", 12}, {"NEW FW", 12}, {"STATUS", 11}, {"MADS", 8}, {"SECONDS", 8}, {"PATH", 28}, {"NOTE", 0}});
  for (const auto& u : updates) {
    char secs[16];
    std::snprintf(secs, sizeof secs, "%.2f", u.seconds);
    std::string note = u.message;  // the JSON keeps the whole message
    if (u.status == NodeUpdateStatus::NoAccess)
      note = "no vendor access" + std::string(u.before.node.local ? " (local node)" : " (vendor MADs not answered)");
    if (u.reset_done) note = "reset, runs " + version_text(u.running_after && u.running_after->image ? u.running_after->image->fw_version : std::nullopt);
    out << cli::table_row({{std::to_string(u.before.node.lid), 5},
                {u.before.device.empty() ? "-" : u.before.device, 12},
                {u.before.psid.empty() ? "-" : u.before.psid, 16},
                {version_text(u.before.fw_version), 12},
                {version_text(u.image_version), 12},
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

}  // namespace openflint::fabriccli
