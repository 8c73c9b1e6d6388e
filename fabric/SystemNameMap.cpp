// SystemNameMap: the name map file and the name rule.
#include "fabric/SystemNameMap.h"

#include <charconv>
#include <sstream>

#include "core/BlankTrim.h"

namespace openflint {
namespace {

std::string trimmed(std::string_view s) { return std::string(trim_blanks(s, " \t\r\n")); }

// A Mellanox switch's NodeDescription "MF0;NAME:TYPE[/WITHIN]" (e.g. "MF0;core-1:CS7500/L05/U1").
std::optional<SystemLocation> switch_description(std::string_view d) {
  if (!d.starts_with("MF0;")) return std::nullopt;
  d.remove_prefix(4);
  const auto colon = d.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  SystemLocation loc{trimmed(d.substr(0, colon)), {}, SystemLocation::Source::Description};
  const auto slash = d.find('/', colon);
  if (slash != std::string_view::npos) loc.within = trimmed(d.substr(slash + 1));
  return loc;
}

}  // namespace

Result<SystemNameMap> SystemNameMap::parse_hosts(std::string_view text) {
  SystemNameMap map;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::istringstream words(raw.substr(0, raw.find('#')));
    std::string name, guid_text, within, extra;
    if (!(words >> name)) continue;
    const auto where = "line " + std::to_string(line_no) + ": ";
    if (!(words >> guid_text) || ((words >> within) && (words >> extra)))
      return make_error(ErrorCode::InvalidArgument, where + "expected 'NAME GUID [WHERE]': " + trimmed(raw));
    std::string_view hex = guid_text;
    if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
    std::uint64_t guid = 0;
    const auto [ptr, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), guid, 16);
    if (hex.empty() || ec != std::errc{} || ptr != hex.data() + hex.size())
      return make_error(ErrorCode::InvalidArgument, where + "bad GUID " + guid_text);
    OF_TRY_CTX(map.add(name, guid, within), where + name);
  }
  return map;
}

Result<void> SystemNameMap::add(const std::string& name, std::uint64_t guid, const std::string& within) {
  if (by_guid_.count(guid) != 0) return make_error(ErrorCode::InvalidArgument, "GUID given twice");
  if (by_name_.count({name, within}) != 0)
    return make_error(ErrorCode::InvalidArgument, within.empty() ? "name given twice" : "name and place given twice");
  by_guid_.emplace(guid, std::pair{name, within});
  by_name_.emplace(std::pair{name, within}, guid);
  return {};
}

SystemLocation SystemNameMap::locate(const FabricNode& node) const {
  if (const auto it = by_guid_.find(node.guid); it != by_guid_.end())
    return {it->second.first, it->second.second, SystemLocation::Source::Map};
  if (auto sw = switch_description(node.description)) return *sw;
  std::istringstream words(node.description);
  SystemLocation loc;
  if (!(words >> loc.system)) return loc;
  loc.source = SystemLocation::Source::Description;
  std::string rest;
  std::getline(words, rest);
  loc.within = trimmed(rest);
  return loc;
}

std::optional<std::uint64_t> SystemNameMap::guid_of(std::string_view name, std::string_view within) const {
  const auto it = by_name_.find(std::pair{std::string(name), std::string(within)});
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

}  // namespace openflint
