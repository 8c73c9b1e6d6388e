// FabricListing: the listing made from a sweep (names, types, running FW, filters, the cabling
// check), and its text and JSON — ibls's output and the web console's /api/fabric.
#include "reports/FabricListing.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <iomanip>
#include <set>

#include "devices/DeviceCatalog.h"

namespace openflint::reports {
namespace {

std::string listing_hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string end_text(const Topology::Port& p) { return p.system + " " + port_name(p.port); }

nlohmann::json listing_port_json(const std::optional<Topology::Port>& p) {
  if (!p) return nullptr;
  return {{"system", p->system}, {"port", port_name(p->port)}};
}

bool same_text(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

const char* or_dash(const std::string& s) { return s.empty() ? "-" : s.c_str(); }

nlohmann::json or_null(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }

}  // namespace

Result<ListingSections> parse_listing_keys(const std::vector<std::string>& keys) {
  ListingSections out;
  for (const auto& arg : keys) {
    std::string_view rest = arg;
    while (true) {
      const auto comma = rest.find(',');
      const std::string_view key = rest.substr(0, comma);
      if (same_text(key, "systems")) out.systems = true;
      else if (same_text(key, "devices")) out.devices = true;
      else if (same_text(key, "cables")) out.cables = true;
      else if (same_text(key, "firmware")) out.firmware = true;
      else
        return make_error(ErrorCode::InvalidArgument,
                          "unknown key '" + std::string(key) + "' (keys: systems, devices, cables, firmware)");
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return out;
}

bool device_matches(std::string_view filter, const FabricNode& node) {
  if (filter.empty()) return true;
  if (auto info = find_device_by_pci_id(node.device_id))
    if (same_text(filter, (*info)->name) || same_text(filter, (*info)->part_number)) return true;
  std::string_view id = filter;
  if (id.size() > 2 && same_text(id.substr(0, 2), "MT")) id.remove_prefix(2);
  unsigned v = 0;
  const auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), v, 10);
  return !id.empty() && ec == std::errc{} && ptr == id.data() + id.size() && v == node.device_id;
}

Result<FabricListing> make_fabric_listing(const SystemNaming& naming, const FabricSweep& sweep,
                                          const std::map<std::uint64_t, std::string>& fw,
                                          const FabricListingFilter& filter) {
  std::map<std::uint64_t, ListedFirmware> listed;
  for (const auto& [guid, version] : fw) listed[guid] = ListedFirmware{.version = version, .psid = "", .path = ""};
  return make_fabric_listing(naming, sweep, listed, filter);
}

Result<FabricListing> make_fabric_listing(const SystemNaming& naming, const FabricSweep& sweep,
                                          const std::map<std::uint64_t, ListedFirmware>& fw,
                                          const FabricListingFilter& filter) {
  const Topology* topo = naming.topology();
  FabricListing l;
  std::map<std::uint64_t, std::string> name_of;
  std::set<std::string> selected;  // names of the systems the filters keep
  for (const auto& node : sweep.nodes) {
    ListedSystem s;
    s.node = node;
    s.name = naming.name_or_guid(node);
    auto info = find_device_by_pci_id(node.device_id);
    if (info) {
      s.device = std::string((*info)->name);
      s.type = std::string((*info)->part_number);
    }
    if (auto declared = naming.declared_type(node); !declared.empty()) s.type = declared;
    if (const auto it = fw.find(node.guid); it != fw.end()) {
      s.fw = it->second.version;
      s.psid = it->second.psid;
      s.path = it->second.path;
    }
    name_of[node.guid] = s.name;
    if ((!filter.guid || node.guid == *filter.guid) && (filter.name.empty() || s.name == filter.name) &&
        device_matches(filter.device, node)) {
      selected.insert(s.name);
      l.systems.push_back(std::move(s));
    }
  }
  if (l.systems.empty()) return make_error(ErrorCode::NotFound, "no system on the fabric matches the filter");
  const bool filtered = filter.guid || !filter.name.empty() || !filter.device.empty();
  for (const auto& link : sweep.links) {
    ListedCable c{{name_of[link.guid_a], link.port_a}, {name_of[link.guid_b], link.port_b}, link};
    if (c.b < c.a) std::swap(c.a, c.b);
    if (!filtered || selected.count(c.a.system) || selected.count(c.b.system)) l.cables.push_back(c);
  }
  std::sort(l.cables.begin(), l.cables.end(), [](const auto& x, const auto& y) { return x.a < y.a; });
  if (filter.check && topo != nullptr) {
    std::vector<CablingFinding> findings;
    for (auto& f : check_cabling(*topo, sweep, naming.map())) {
      const bool touches = selected.count(f.port.system) || (f.expected && selected.count(f.expected->system)) ||
                           (f.found && selected.count(f.found->system));
      if (!filtered || touches) findings.push_back(f);
    }
    l.findings = std::move(findings);
  }
  return l;
}

std::string finding_text(const CablingFinding& f) {
  using Kind = CablingFinding::Kind;
  switch (f.kind) {
    case Kind::MissingSystem: return "missing system " + f.port.system + " (not found on the fabric)";
    case Kind::UnexpectedSystem:
      return "unexpected system " + f.port.system + " (GUID " + listing_hex64(f.guid) +
             (f.found ? ", connected to " + end_text(*f.found) : "") + ")";
    case Kind::WrongType:
      return "wrong type " + f.port.system + ": declared " + f.declared_type + ", found " + f.found_type;
    case Kind::MissingCable: return "missing cable " + end_text(f.port) + " <-> " + end_text(*f.expected);
    case Kind::Miswired:
      return "miswired " + end_text(f.port) + ": declared to " + end_text(*f.expected) + ", connected to " +
             end_text(*f.found);
    case Kind::ExtraCable: return "extra cable " + end_text(f.port) + " <-> " + end_text(*f.found);
  }
  return "?";
}

void print_listing(std::ostream& out, const FabricListing& l, const ListingSections& sections) {
  const bool classic = sections.classic();
  if (classic) {
    out << "Systems (" << l.systems.size() << "):\n";
    for (const auto& s : l.systems) {
      out << "  " << std::left << std::setw(18) << s.name << ' ' << std::setw(9) << s.type << ' ' << std::setw(6)
          << to_string(s.node.type) << ' ' << listing_hex64(s.node.guid) << "  lid " << std::setw(5) << s.node.lid
          << ' ' << std::setw(14) << (s.device.empty() ? "-" : s.device) << (s.fw.empty() ? "" : " FW " + s.fw)
          << (s.node.local ? "  (local)" : "") << '\n';
    }
  }
  if (sections.systems) {
    out << "Systems (" << l.systems.size() << "):\n";
    for (const auto& s : l.systems) out << "  " << std::left << std::setw(18) << s.name << ' ' << or_dash(s.type) << '\n';
  }
  if (sections.devices) {
    out << "Devices (" << l.systems.size() << "):\n";
    for (const auto& s : l.systems) {
      out << "  " << std::left << std::setw(18) << s.name << ' ' << std::setw(6) << to_string(s.node.type) << ' '
          << listing_hex64(s.node.guid) << "  lid " << std::setw(5) << s.node.lid << ' ' << or_dash(s.device)
          << (s.node.local ? "  (local)" : "") << '\n';
    }
  }
  if (sections.firmware) {
    out << "Firmware (" << l.systems.size() << "):\n";
    for (const auto& s : l.systems) {
      out << "  " << std::left << std::setw(18) << s.name << ' ' << listing_hex64(s.node.guid) << ' ' << std::setw(14)
          << or_dash(s.device) << ' ' << std::setw(16) << or_dash(s.psid) << ' ' << std::setw(12) << or_dash(s.fw)
          << ' ' << or_dash(s.path) << '\n';
    }
  }
  if (classic || sections.cables) {
    out << "Cables (" << l.cables.size() << "):\n";
    for (const auto& c : l.cables) {
      out << "  " << std::left << std::setw(24) << end_text(c.a) << " <-> " << std::setw(24) << end_text(c.b) << ' '
          << c.link.width << ' ' << c.link.speed << ' ' << c.link.state << '\n';
    }
  }
  if (l.findings) {
    if (l.findings->empty()) {
      out << "Topology check: the cabling matches the topology file\n";
    } else {
      out << "Topology check: " << l.findings->size() << " problem(s):\n";
      for (const auto& f : *l.findings) out << "  " << finding_text(f) << '\n';
    }
  }
}

nlohmann::json listing_json(const FabricListing& l, const ListingSections& sections) {
  const bool classic = sections.classic();
  nlohmann::json systems = nlohmann::json::array();
  nlohmann::json devices = nlohmann::json::array();
  nlohmann::json firmware = nlohmann::json::array();
  for (const auto& s : l.systems) {
    devices.push_back({{"name", s.name}, {"node_type", to_string(s.node.type)}, {"guid", listing_hex64(s.node.guid)},
                       {"lid", s.node.lid}, {"device_id", s.node.device_id}, {"device", s.device},
                       {"description", s.node.description}, {"local", s.node.local}});
    firmware.push_back({{"name", s.name}, {"guid", listing_hex64(s.node.guid)}, {"device", s.device},
                        {"psid", or_null(s.psid)}, {"fw_version", or_null(s.fw)}, {"path", or_null(s.path)}});
    if (!classic) {
      systems.push_back({{"name", s.name}, {"type", s.type}});
      continue;
    }
    systems.push_back({{"name", s.name}, {"type", s.type}, {"node_type", to_string(s.node.type)},
                       {"guid", listing_hex64(s.node.guid)}, {"lid", s.node.lid}, {"description", s.node.description},
                       {"device_id", s.node.device_id}, {"device", s.device},
                       {"fw_version", s.fw.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.fw)},
                       {"local", s.node.local}});
  }
  nlohmann::json cables = nlohmann::json::array();
  for (const auto& c : l.cables) {
    cables.push_back({{"a", listing_port_json(c.a)}, {"b", listing_port_json(c.b)}, {"width", c.link.width},
                      {"speed", c.link.speed}, {"state", c.link.state}});
  }
  nlohmann::json doc{{"ok", true}};
  if (classic || sections.systems) doc["systems"] = systems;
  if (sections.devices) doc["devices"] = devices;
  if (classic || sections.cables) doc["cables"] = cables;
  if (sections.firmware) doc["firmware"] = firmware;
  if (l.findings) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : *l.findings) {
      nlohmann::json j{{"kind", to_string(f.kind)}, {"system", f.port.system}, {"text", finding_text(f)}};
      if (f.port.port > 0) j["port"] = port_name(f.port.port);
      j["expected"] = listing_port_json(f.expected);
      j["found"] = listing_port_json(f.found);
      if (f.guid != 0) j["guid"] = listing_hex64(f.guid);
      if (f.kind == CablingFinding::Kind::WrongType) {
        j["declared_type"] = f.declared_type;
        j["found_type"] = f.found_type;
      }
      findings.push_back(j);
    }
    doc["check"] = {{"clean", l.findings->empty()}, {"findings", findings}};
  }
  return doc;
}

}  // namespace openflint::reports
