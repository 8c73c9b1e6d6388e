// RemoteStatus: one table (or JSON document) of the devices each remote host lists.
#include "core/HexString.h"
#include "mst/RemoteStatus.h"

#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/TextArgs.h"
#include "fwops/access/RemoteListing.h"

namespace openflint::mst {
namespace {

using nlohmann::json;

// The JSON of `mst status --remote` is versioned (docs/json.md): adding keys keeps the number,
// renaming or removing one raises it.
constexpr int kRemoteStatusJsonVersion = 1;

std::string guid_text(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

json remote_device_json(const RemoteDeviceStatus& d) {
  const auto& q = d.flash;
  return {{"name", d.name},
          {"listed_as", d.remote.device},
          {"device", d.info ? json(std::string(d.info->name)) : json(nullptr)},
          {"kind", d.info ? json(std::string(to_string(d.info->kind))) : json(nullptr)},
          {"hw_id", d.info ? json(hex_string(d.info->hw_id)) : json(nullptr)},
          {"psid", q ? json(q->psid) : json(nullptr)},
          {"flash_fw_version", q && q->fw_version ? json(q->fw_version->to_string()) : json(nullptr)},
          {"guid", d.node_guid ? json(guid_text(*d.node_guid)) : json(nullptr)},
          {"error", d.error.empty() ? json(nullptr) : json(d.error)}};
}

json remote_host_json(const RemoteHostStatus& h) {
  json devices = json::array();
  for (const auto& d : h.devices) devices.push_back(remote_device_json(d));
  return {{"host", to_string(h.host)},
          {"reachable", h.error.empty()},
          {"error", h.error.empty() ? json(nullptr) : json(h.error)},
          {"devices", devices}};
}

void print_remote_host(std::ostream& out, const RemoteHostStatus& h) {
  if (!h.error.empty()) {
    out << "Remote host " << to_string(h.host) << ": unreachable: " << h.error << "\n";
    return;
  }
  out << "Remote devices (" << to_string(h.host) << "):\n";
  if (h.devices.empty()) {
    out << "  none (the host lists no device)\n";
    return;
  }
  out << cli::table_row({{"NAME", 36}, {"DEVICE", 14}, {"PSID", 16}, {"FW (FLASH)", 12}, {"GUID", 18}, {"NOTE", 0}});
  for (const auto& d : h.devices) {
    const auto& q = d.flash;
    out << cli::table_row({{d.name, 36},
                           {d.info ? std::string(d.info->name) : "-", 14},
                           {q && !q->psid.empty() ? q->psid : "-", 16},
                           {q && q->fw_version ? q->fw_version->to_string() : "-", 12},
                           {d.node_guid ? guid_text(*d.node_guid) : "-", 18},
                           {d.error, 0}});
  }
}

}  // namespace

int run_remote_status(const std::vector<std::string>& hosts, const Common& common) {
  std::vector<RemoteHost> parsed;
  for (const auto& text : hosts) {
    auto host = parse_remote_host(text);
    if (!host) return cli::report_error(host.error().with_context("--remote"), common.json);
    parsed.push_back(*host);
  }
  std::vector<RemoteHostStatus> listed;
  bool all_reached = true;
  // Like the local listing: a device busy on its host is reported after a short wait, not
  // waited for as a tool waits (a burn there takes minutes).
  DeviceOpenOptions options;
  options.lock_timeout = std::chrono::milliseconds(200);
  for (const auto& host : parsed) {
    listed.push_back(list_remote_host(host, options));
    all_reached = all_reached && listed.back().error.empty();
  }
  if (common.json) {
    json doc{{"ok", all_reached}, {"json_version", kRemoteStatusJsonVersion}, {"remote", json::array()}};
    for (const auto& h : listed) doc["remote"].push_back(remote_host_json(h));
    std::cout << doc.dump(2) << '\n';
  } else {
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (i) std::cout << '\n';
      print_remote_host(std::cout, listed[i]);
    }
  }
  return all_reached ? cli::kOk : cli::kFailed;
}

}  // namespace openflint::mst
