// CablingCheck: declared cables against discovered links, port by port.
#include "fabric/CablingCheck.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "devices/DeviceCatalog.h"
#include "fabric/SystemType.h"

namespace openflint {
namespace {

using Port = Topology::Port;

std::string guid_name(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

CablingFinding finding(CablingFinding::Kind kind, const Port& port, std::optional<Port> expected,
                       std::optional<Port> found, std::uint64_t guid) {
  CablingFinding f;
  f.kind = kind;
  f.port = port;
  f.expected = std::move(expected);
  f.found = std::move(found);
  f.guid = guid;
  return f;
}

// WrongType when the declared type names a catalog device whose PCI ids do not include the node's.
std::optional<CablingFinding> type_finding(const Topology::System& declared, const FabricNode& node) {
  auto type = find_system_type(declared.type);
  if (!type) return std::nullopt;  // not a catalog word: nothing to compare with
  const DeviceInfo& d = **type;
  if (node.device_id == d.pci_device_id || node.device_id == d.pci_alt_device_id ||
      (d.pci_recovery_id != 0 && node.device_id == d.pci_recovery_id))
    return std::nullopt;
  auto found = find_device_by_pci_id(node.device_id);
  char id[16];
  std::snprintf(id, sizeof id, "0x%04x", node.device_id);
  auto f = finding(CablingFinding::Kind::WrongType, Port{declared.name, 0}, std::nullopt, std::nullopt, node.guid);
  f.declared_type = declared.type;
  f.found_type = found ? std::string((*found)->part_number) : std::string("device id ") + id;
  return f;
}

}  // namespace

std::vector<CablingFinding> check_cabling(const Topology& topology, const FabricSweep& fabric,
                                          const SystemNameMap& names) {
  using Kind = CablingFinding::Kind;
  std::vector<CablingFinding> out;
  std::map<std::uint64_t, std::string> name_by_guid;  // every node, known or not
  std::set<std::string> present;                      // topology systems found on the fabric
  std::set<std::string> used;                         // every name given so far
  for (const FabricNode& node : fabric.nodes) {
    std::string name = names.name_of(node);
    // A node is the declared system when it has that name and is the first node to have it.
    const bool known = !name.empty() && topology.find_system(name) != nullptr && present.count(name) == 0;
    if (!known && (name.empty() || topology.find_system(name) != nullptr || used.count(name) != 0))
      name = guid_name(node.guid);  // nameless, or a name another node already has
    used.insert(name);
    name_by_guid[node.guid] = name;
    if (known) {
      present.insert(name);
      if (auto wrong = type_finding(*topology.find_system(name), node)) out.push_back(*wrong);
    } else {
      out.push_back(finding(Kind::UnexpectedSystem, Port{name, 0}, std::nullopt, std::nullopt, node.guid));
    }
  }
  for (const auto& s : topology.systems()) {
    if (present.count(s.name) == 0)
      out.push_back(finding(Kind::MissingSystem, Port{s.name, 0}, std::nullopt, std::nullopt, 0));
  }
  std::map<Port, Port> actual;
  for (const FabricLink& l : fabric.links) {
    const Port a{name_by_guid[l.guid_a], l.port_a};
    const Port b{name_by_guid[l.guid_b], l.port_b};
    actual[a] = b;
    actual[b] = a;
  }
  for (auto& f : out) {  // where an unexpected system is plugged in: its first cable's far end
    if (f.kind != Kind::UnexpectedSystem) continue;
    const auto it = std::find_if(actual.begin(), actual.end(), [&](const auto& e) { return e.first.system == f.port.system; });
    if (it != actual.end()) f.found = it->second;
  }
  const auto peer_of = [&](const Port& p) -> std::optional<Port> {
    const auto it = actual.find(p);
    if (it == actual.end()) return std::nullopt;
    return it->second;
  };
  for (const auto& cable : topology.cables()) {
    const auto found_a = peer_of(cable.a);
    const auto found_b = peer_of(cable.b);
    if (found_a == cable.b) continue;  // as declared
    if (!found_a && !found_b) {
      const bool a_first = cable.a < cable.b;  // named from the end that sorts first, whichever line declared it
      out.push_back(finding(Kind::MissingCable, a_first ? cable.a : cable.b, a_first ? cable.b : cable.a,
                                   std::nullopt, 0));
      continue;
    }
    if (found_a) out.push_back(finding(Kind::Miswired, cable.a, cable.b, found_a, 0));
    if (found_b) out.push_back(finding(Kind::Miswired, cable.b, cable.a, found_b, 0));
  }
  for (const auto& [a, b] : actual) {
    if (!(a < b) || !present.count(a.system) || !present.count(b.system)) continue;
    if (!topology.peer(a) && !topology.peer(b))
      out.push_back(finding(Kind::ExtraCable, a, std::nullopt, b, 0));
  }
  std::stable_sort(out.begin(), out.end(), [](const CablingFinding& x, const CablingFinding& y) {
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.port < y.port;
  });
  return out;
}

}  // namespace openflint
