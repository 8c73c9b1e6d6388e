// SystemNameMap: which system name a fabric node goes by (name map by GUID, else its NodeDescription).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/Result.h"
#include "fabric/FabricNode.h"

namespace openflint {

// Where a node sits: its system and, where known, the device or port within the system
// ("mlx5_0" of a host, "L05/U1" of a modular switch).
struct SystemLocation {
  enum class Source { None, Map, Description };
  std::string system;  // empty when the node has no name at all
  std::string within;  // empty when not known
  Source source = Source::None;
};
[[nodiscard]] constexpr const char* to_string(SystemLocation::Source s) {
  return s == SystemLocation::Source::Map ? "names" : (s == SystemLocation::Source::Description ? "description" : "none");
}

class SystemNameMap {
 public:
  // A name map: "NAME GUID [WHERE]" per line (GUID hex, 0x optional; WHERE the device or port
  // within the system, e.g. mlx5_1), '#' comments, blank lines. Errors name the line
  // (InvalidArgument "line N: why"): syntax, a bad GUID, a GUID or a NAME+WHERE given twice.
  [[nodiscard]] static Result<SystemNameMap> parse_hosts(std::string_view text);

  [[nodiscard]] Result<void> add(const std::string& name, std::uint64_t guid, const std::string& within = {});

  // Where the node sits: the map's entry for its GUID; else its NodeDescription — a switch's
  // "MF0;NAME:TYPE/WITHIN", else "NAME [WITHIN...]" (ibsim sets the description to the node's
  // name; a host's is usually "HOSTNAME mlx5_0"); Source::None when it has neither.
  [[nodiscard]] SystemLocation locate(const FabricNode& node) const;
  // locate(node).system.
  [[nodiscard]] std::string name_of(const FabricNode& node) const { return locate(node).system; }
  [[nodiscard]] std::optional<std::uint64_t> guid_of(std::string_view name, std::string_view within = {}) const;
  [[nodiscard]] std::size_t size() const { return by_guid_.size(); }

 private:
  std::map<std::uint64_t, std::pair<std::string, std::string>> by_guid_;  // name, within
  std::map<std::pair<std::string, std::string>, std::uint64_t, std::less<>> by_name_;
};

}  // namespace openflint
