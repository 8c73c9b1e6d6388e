// NodeSelection: matching GUID, LID and NAME selectors, node types and system types against the fabric's nodes.
#include "fabric/NodeSelection.h"

#include <algorithm>
#include <cctype>

#include "devices/DeviceInfo.h"
#include "core/HexString.h"
#include "fabric/SystemType.h"
#include "mtcr/remote/NameClient.h"

namespace openflint {
namespace {

bool same_text_nocase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// One --node/--exclude value, parsed: a GUID, a LID or a name.
struct Selector {
  std::string text;
  std::optional<std::uint64_t> guid;
  std::optional<std::uint16_t> lid;
};

Result<Selector> parse_selector(const std::string& text, std::string_view option) {
  Selector s{.text = text, .guid = {}, .lid = {}};
  const auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::InvalidArgument, std::string(option) + " " + text + ": " + why);
  };
  if (text.empty()) return bad("empty");
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    const std::string digits = text.substr(2);
    if (digits.size() > 16 || !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isxdigit(c); }))
      return bad("not a GUID (0x and at most 16 hex digits)");
    s.guid = std::stoull(digits, nullptr, 16);
  } else if (std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
    if (text.size() > 5 || std::stoul(text) > 0xffff) return bad("not a LID (1..65535)");
    s.lid = static_cast<std::uint16_t>(std::stoul(text));
  }
  return s;
}

bool matches(const Selector& s, const FabricNode& node, const SystemNaming& naming) {
  if (s.guid) return node.guid == *s.guid;
  if (s.lid) return node.lid == *s.lid && node.lid != 0;
  return naming.locate(node).system == s.text || node.description == s.text;
}

// The system type of --system-type: what the topology declares, or the catalog device's PCI ids.
bool has_system_type(const FabricNode& node, std::string_view type, const DeviceInfo* catalog, const SystemNaming& naming) {
  if (same_text_nocase(naming.declared_type(node), type)) return true;
  return catalog != nullptr && node.device_id != 0 &&
         (node.device_id == catalog->pci_device_id || node.device_id == catalog->pci_alt_device_id);
}

Result<std::vector<Selector>> parse_all(const std::vector<std::string>& texts, std::string_view option) {
  std::vector<Selector> out;
  for (const auto& t : texts) {
    OF_ASSIGN(Selector s, parse_selector(t, option));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Result<NodeSelection> resolve_names_by_server(const std::vector<FabricNode>& all, NodeSelection selection,
                                              const SystemNaming& naming) {
  std::optional<NameClient> client;
  bool looked_for_server = false;
  const auto resolve = [&](std::vector<std::string>& texts, std::string_view option) -> Result<void> {
    for (std::string& text : texts) {
      OF_ASSIGN(const Selector s, parse_selector(text, option));
      if (s.guid || s.lid) continue;
      if (std::any_of(all.begin(), all.end(), [&](const FabricNode& n) { return matches(s, n, naming); })) continue;
      if (!looked_for_server) {
        looked_for_server = true;
        OF_ASSIGN(const auto location, find_name_server());
        if (!location) return {};
        auto connected = NameClient::connect(location->server);
        if (!connected)
          return make_error(std::move(connected).error().with_context(std::string(option) + " " + text +
                                                                     ": asking the name server (from " + location->source + ")"));
        client.emplace(std::move(*connected));
      }
      if (!client) return {};
      auto entry = client->lookup(text);
      if (!entry) {
        if (entry.error().code() == ErrorCode::NotFound) continue;  // select_nodes names it
        return make_error(std::move(entry).error().with_context(std::string(option) + " " + text));
      }
      text = hex_string(entry->guid);
    }
    return {};
  };
  OF_TRY(resolve(selection.nodes, "--node"));
  OF_TRY(resolve(selection.exclude, "--exclude"));
  return selection;
}

Result<std::vector<std::size_t>> select_node_indices(const std::vector<FabricNode>& all, const NodeSelection& selection,
                                                    const SystemNaming& naming) {
  OF_ASSIGN(const std::vector<Selector> wanted, parse_all(selection.nodes, "--node"));
  OF_ASSIGN(const std::vector<Selector> unwanted, parse_all(selection.exclude, "--exclude"));
  const auto none = [&all](const Selector& s, const SystemNaming& names) {
    return std::none_of(all.begin(), all.end(), [&](const FabricNode& n) { return matches(s, n, names); });
  };
  for (const auto& s : wanted)
    if (none(s, naming)) return make_error(ErrorCode::InvalidArgument, "--node " + s.text + " matches no node of the fabric");
  for (const auto& s : unwanted)
    if (none(s, naming))
      return make_error(ErrorCode::InvalidArgument, "--exclude " + s.text + " matches no node of the fabric");
  const DeviceInfo* catalog = nullptr;
  if (!selection.system_type.empty()) {
    if (auto found = find_system_type(selection.system_type)) catalog = *found;
    if (std::none_of(all.begin(), all.end(),
                     [&](const FabricNode& n) { return has_system_type(n, selection.system_type, catalog, naming); }))
      return make_error(ErrorCode::InvalidArgument, "--system-type " + selection.system_type +
                                                        " matches no node of the fabric (neither the topology's system "
                                                        "types nor a catalog part number or model of a node)");
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const FabricNode& n = all[i];
    const auto hit = [&](const Selector& s) { return matches(s, n, naming); };
    if (!wanted.empty() && std::none_of(wanted.begin(), wanted.end(), hit)) continue;
    if (std::any_of(unwanted.begin(), unwanted.end(), hit)) continue;
    if (selection.type && n.type != *selection.type) continue;
    if (!selection.system_type.empty() && !has_system_type(n, selection.system_type, catalog, naming)) continue;
    out.push_back(i);
  }
  return out;
}

Result<std::vector<FabricNode>> select_nodes(const std::vector<FabricNode>& all, const NodeSelection& selection,
                                             const SystemNaming& naming) {
  OF_ASSIGN(const std::vector<std::size_t> kept, select_node_indices(all, selection, naming));
  std::vector<FabricNode> out;
  out.reserve(kept.size());
  for (const std::size_t i : kept) out.push_back(all[i]);
  return out;
}

}  // namespace openflint
