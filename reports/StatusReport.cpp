// StatusReport: fixed-width rows and the JSON documented in docs/json.md ("mst").
#include "cli/TextArgs.h"
#include "reports/SafetyReport.h"
#include "reports/StatusReport.h"

#include <cstdio>
#include <string>


namespace openflint::reports {
namespace {

using nlohmann::json;

std::string hex4(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

std::string hex2(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", v & 0xff);
  return buf;
}

std::string guid_text(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

std::string joined(const std::vector<std::string>& items, const std::string& prefix = "") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + prefix + i;
  return out.empty() ? "-" : out;
}

json probe_json(const AccessProbe& p) {
  return {{"works", p.works},
          {"hw_id", p.hw_id_word ? json(hex4(*p.hw_id_word & 0xffff)) : json(nullptr)},
          {"reason", p.works ? json(nullptr) : json(p.reason)}};
}

std::string methods(const PciDeviceStatus& d) {
  std::string m;
  if (d.config.works) m = "config";
  if (d.bar.works) m += m.empty() ? "bar" : ",bar";
  return m.empty() ? "none" : m;
}

std::string device_text(const PciDeviceStatus& d) {
  if (!d.info) return "unknown";
  return std::string(d.info->name) + (d.recovery ? " (recovery)" : "");
}

json opt_string(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

}  // namespace

json device_json(const PciDeviceStatus& d) {
  const MellanoxFunction& f = d.function;
  json doc{{"bdf", f.address.to_string()},
          {"mst_name", f.mst_name(PciMethod::Config)},
          {"mst_bar_name", f.mst_name(PciMethod::Bar)},
          {"device", d.info ? json(std::string(d.info->name)) : json(nullptr)},
          {"part_number", d.info ? json(std::string(d.info->part_number)) : json(nullptr)},
          {"kind", d.info ? json(std::string(to_string(d.info->kind))) : json(nullptr)},
          {"vendor_id", "0x15b3"},
          {"device_id", hex4(f.device_id)},
          {"normal_device_id", d.info ? json(hex4(d.info->pci_device_id)) : json(nullptr)},
          {"recovery", d.recovery},
          {"revision", f.revision ? json(hex2(*f.revision)) : json(nullptr)},
          {"subsystem_vendor_id", f.subsystem_vendor ? json(hex4(*f.subsystem_vendor)) : json(nullptr)},
          {"subsystem_device_id", f.subsystem_device ? json(hex4(*f.subsystem_device)) : json(nullptr)},
          {"access", {{"config", probe_json(d.config)}, {"bar", probe_json(d.bar)}}},
          {"driver", opt_string(d.driver)},
          {"rdma", d.rdma},
          {"net", d.net},
          {"numa_node", d.numa_node ? json(*d.numa_node) : json(nullptr)},
          {"fw_version", opt_string(d.fw_version)}, {"fw_source", opt_string(d.fw_source)},
          {"port_protocols", d.port_protocols}};
  // Only when the listing read them (mst status --json): the facts, or null and why not.
  if (d.safety) doc["safety"] = safety_json(*d.safety);
  else if (!d.safety_error.empty()) doc.update({{"safety", nullptr}, {"safety_error", d.safety_error}});
  return doc;
}

json node_json(const NodeFirmware& n) {
  return {{"name", n.node.device_name()},
          {"lid", n.node.lid},
          {"type", to_string(n.node.type)},
          {"guid", guid_text(n.node.guid)},
          {"description", n.node.description},
          {"local", n.node.local},
          {"pci_device_id", hex4(n.node.device_id)},
          {"vendor_access", n.vendor_access},
          {"device", opt_string(n.device)},
          {"psid", opt_string(n.psid)},
          {"fw_version", n.fw_version ? json(n.fw_version->to_string()) : json(nullptr)},
          {"recovery", n.recovery},
          {"note", n.note}};
}

json host_json(const HostAccess& h) {
  return {{"root", h.root},
          {"sysfs_readable", h.sysfs_readable},
          {"config_writable", h.config_writable},
          {"lockdown", opt_string(h.lockdown)},
          {"umad_ports", h.umad_ports},
          {"active_ib_ports", h.active_ib_ports}};
}

json links_json(const std::vector<MstLink>& links) {
  json list = json::array();
  for (const auto& l : links) list.push_back({{"name", l.name}, {"target", l.target.string()}, {"state", to_string(l.state)}});
  return list;
}

void print_devices(std::ostream& out, const std::filesystem::path& sysfs_root,
                   const std::vector<PciDeviceStatus>& devices, bool verbose) {
  out << "PCI devices (" << (sysfs_root / "devices").string() << "):\n";
  if (devices.empty()) {
    out << "  none (no function of vendor 0x15b3)\n";
    return;
  }
  out << cli::table_row({{"BDF", 12}, {"MST", 16}, {"DEVICE", 24}, {"ID", 9}, {"ACCESS", 10}, {"DRIVER", 10}, {"RDMA", 8}, {"NET", 12}, {"FW", 0}});
  for (const auto& d : devices) {
    out << cli::table_row({{d.function.address.to_string(), 12},
                {d.function.mst_name(), 16},
                {device_text(d), 24},
                {hex4(d.function.device_id).substr(2) + (d.recovery ? "(r)" : ""), 9},
                {methods(d), 10},
                {d.driver.empty() ? "-" : d.driver, 10},
                {joined(d.rdma), 8},
                {joined(d.net, "net-"), 12},
                {d.fw_version.empty() ? (d.recovery ? "recovery" : "-") : d.fw_version, 0}});
    if (!verbose) continue;
    if (d.recovery && d.info)
      out << "    recovery mode: PCI id " << hex4(d.function.device_id) << " (normal " << hex4(d.info->pci_device_id)
          << "): no firmware runs; flash it with flint -d " << d.function.mst_name() << "\n";
    out << "    ids: 15b3:" << hex4(d.function.device_id).substr(2);
    if (d.function.subsystem_vendor && d.function.subsystem_device)
      out << " subsystem " << hex4(*d.function.subsystem_vendor).substr(2) << ":" << hex4(*d.function.subsystem_device).substr(2);
    if (d.function.revision) out << " rev " << static_cast<unsigned>(*d.function.revision);
    if (d.numa_node) out << " numa " << *d.numa_node;
    out << "\n";
    for (const auto& [label, p] : {std::pair{"config space", &d.config}, std::pair{"BAR0", &d.bar}}) {
      out << "    " << label << ": ";
      if (p->works) out << "works (hw id " << hex4(*p->hw_id_word & 0xffff) << ")\n";
      else out << "no: " << p->reason << "\n";
    }
    if (d.port_protocols.empty()) continue;
    out << "    ports:";
    for (std::size_t i = 0; i < d.port_protocols.size(); ++i) out << (i ? ", " : " ") << i + 1 << " " << d.port_protocols[i];
    out << " (since the last boot)\n";
  }
}

void print_nodes(std::ostream& out, const std::vector<NodeFirmware>& nodes) {
  out << "In-band devices:\n";
  out << cli::table_row({{"NAME", 8}, {"TYPE", 6}, {"GUID", 18}, {"DEVICE", 14}, {"PSID", 16}, {"RUNNING FW", 12}, {"NOTE", 0}});
  for (const auto& n : nodes) {
    out << cli::table_row({{n.node.device_name(), 8},
                {to_string(n.node.type), 6},
                {guid_text(n.node.guid), 18},
                {n.device.empty() ? "-" : n.device, 14},
                {n.psid.empty() ? "-" : n.psid, 16},
                {n.fw_version ? n.fw_version->to_string() : (n.recovery ? "recovery" : "-"), 12},
                {n.note + (n.node.local ? (n.note.empty() ? "local" : "; local") : ""), 0}});
  }
}

void print_host(std::ostream& out, const HostAccess& h, const std::vector<PciDeviceStatus>& devices) {
  out << "Host access:\n";
  out << "  root: " << (h.root ? "yes" : "no (config-space writes and BAR mappings need root)") << "\n";
  out << "  sysfs PCI tree: " << (h.sysfs_readable ? "readable" : "not readable")
      << (devices.empty() ? "" : (h.config_writable ? ", config space writable" : ", config space NOT writable")) << "\n";
  out << "  kernel lockdown: " << (h.lockdown.empty() ? "not present (BAR mappings allowed)" : h.lockdown)
      << (h.lockdown.empty() || h.lockdown == "none" ? "" : " (BAR mappings are blocked; config space still works)") << "\n";
  out << "  in-band (umad): " << (h.umad_ports.empty() ? std::string("no /dev/infiniband/umad* (no in-band access)")
                                                        : joined(h.umad_ports))
      << "\n";
  for (const auto& d : devices) {
    out << "  " << d.function.address.to_string() << " " << device_text(d) << ": config space "
        << (d.config.works ? "works" : "no (" + d.config.reason + ")") << "; BAR0 "
        << (d.bar.works ? "works" : "no (" + d.bar.reason + ")") << "\n";
  }
}

void print_links(std::ostream& out, const std::filesystem::path& dir, const std::vector<MstLink>& links) {
  if (links.empty()) out << dir.string() << ": no links of ours\n";
  for (const auto& l : links) out << (dir / l.name).string() << " -> " << l.target.string() << " (" << to_string(l.state) << ")\n";
}

}  // namespace openflint::reports
