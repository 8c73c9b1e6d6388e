// Listing: ibls's text and JSON output.
#include "fabric/ibls/Listing.h"

#include <cstdio>
#include <iomanip>

namespace openflint::ibls {
namespace {

std::string hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string end_text(const Topology::Port& p) { return p.system + " " + port_name(p.port); }

nlohmann::json port_json(const std::optional<Topology::Port>& p) {
  if (!p) return nullptr;
  return {{"system", p->system}, {"port", port_name(p->port)}};
}

}  // namespace

std::string finding_text(const CablingFinding& f) {
  using Kind = CablingFinding::Kind;
  switch (f.kind) {
    case Kind::MissingSystem: return "missing system " + f.port.system + " (not found on the fabric)";
    case Kind::UnexpectedSystem:
      return "unexpected system " + f.port.system + " (GUID " + hex64(f.guid) +
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

void print_listing(std::ostream& out, const Listing& l) {
  out << "Systems (" << l.systems.size() << "):\n";
  for (const auto& s : l.systems) {
    out << "  " << std::left << std::setw(18) << s.name << ' ' << std::setw(9) << s.type << ' ' << std::setw(6)
        << to_string(s.node.type) << ' ' << hex64(s.node.guid) << "  lid " << std::setw(5) << s.node.lid << ' '
        << std::setw(14) << (s.device.empty() ? "-" : s.device) << (s.fw.empty() ? "" : " FW " + s.fw)
        << (s.node.local ? "  (local)" : "") << '\n';
  }
  out << "Cables (" << l.cables.size() << "):\n";
  for (const auto& c : l.cables) {
    out << "  " << std::left << std::setw(24) << end_text(c.a) << " <-> " << std::setw(24) << end_text(c.b) << ' '
        << c.link.width << ' ' << c.link.speed << ' ' << c.link.state << '\n';
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

nlohmann::json listing_json(const Listing& l) {
  nlohmann::json systems = nlohmann::json::array();
  for (const auto& s : l.systems) {
    systems.push_back({{"name", s.name}, {"type", s.type}, {"node_type", to_string(s.node.type)},
                       {"guid", hex64(s.node.guid)}, {"lid", s.node.lid}, {"description", s.node.description},
                       {"device_id", s.node.device_id}, {"device", s.device},
                       {"fw_version", s.fw.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.fw)},
                       {"local", s.node.local}});
  }
  nlohmann::json cables = nlohmann::json::array();
  for (const auto& c : l.cables) {
    cables.push_back({{"a", port_json(c.a)}, {"b", port_json(c.b)}, {"width", c.link.width},
                      {"speed", c.link.speed}, {"state", c.link.state}});
  }
  nlohmann::json doc{{"ok", true}, {"systems", systems}, {"cables", cables}};
  if (l.findings) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : *l.findings) {
      nlohmann::json j{{"kind", to_string(f.kind)}, {"system", f.port.system}, {"text", finding_text(f)}};
      if (f.port.port > 0) j["port"] = port_name(f.port.port);
      j["expected"] = port_json(f.expected);
      j["found"] = port_json(f.found);
      if (f.guid != 0) j["guid"] = hex64(f.guid);
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

}  // namespace openflint::ibls
