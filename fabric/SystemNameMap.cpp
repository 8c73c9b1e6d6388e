// SystemNameMap: the hosts map file and the name rule.
#include "fabric/SystemNameMap.h"

#include <charconv>
#include <sstream>

namespace openflint {

Result<SystemNameMap> SystemNameMap::parse_hosts(std::string_view text) {
  SystemNameMap map;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::istringstream words(raw.substr(0, raw.find('#')));
    std::string name, guid_text, extra;
    if (!(words >> name)) continue;
    const auto where = "line " + std::to_string(line_no) + ": ";
    if (!(words >> guid_text) || (words >> extra))
      return make_error(ErrorCode::InvalidArgument, where + "expected 'NAME GUID': " + raw);
    std::string_view hex = guid_text;
    if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
    std::uint64_t guid = 0;
    const auto [ptr, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), guid, 16);
    if (hex.empty() || ec != std::errc{} || ptr != hex.data() + hex.size())
      return make_error(ErrorCode::InvalidArgument, where + "bad GUID " + guid_text);
    if (auto added = map.add(name, guid); !added) return make_error(added.error().with_context(where + name));
  }
  return map;
}

Result<void> SystemNameMap::add(const std::string& name, std::uint64_t guid) {
  if (by_guid_.count(guid) != 0) return make_error(ErrorCode::InvalidArgument, "GUID given twice");
  if (by_name_.count(name) != 0) return make_error(ErrorCode::InvalidArgument, "name given twice");
  by_guid_.emplace(guid, name);
  by_name_.emplace(name, guid);
  return {};
}

std::string SystemNameMap::name_of(const FabricNode& node) const {
  if (const auto it = by_guid_.find(node.guid); it != by_guid_.end()) return it->second;
  std::istringstream words(node.description);
  std::string first;
  words >> first;
  return first;
}

std::optional<std::uint64_t> SystemNameMap::guid_of(std::string_view name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

}  // namespace openflint
