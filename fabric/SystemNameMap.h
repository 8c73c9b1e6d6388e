// SystemNameMap: which system name a fabric node goes by (hosts map by GUID, else its NodeDescription).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "fabric/FabricNode.h"

namespace openflint {

class SystemNameMap {
 public:
  // A hosts map: "NAME GUID" per line (GUID hex, 0x optional), '#' comments, blank lines.
  // Errors name the line (InvalidArgument): syntax, a bad GUID, a GUID or name given twice.
  [[nodiscard]] static Result<SystemNameMap> parse_hosts(std::string_view text);

  [[nodiscard]] Result<void> add(const std::string& name, std::uint64_t guid);

  // The node's system name: the hosts map entry for its GUID; else its NodeDescription's first
  // word (ibsim sets the description to the node's name; a host's is usually "HOSTNAME mlx5_0");
  // empty when the node has neither.
  [[nodiscard]] std::string name_of(const FabricNode& node) const;
  [[nodiscard]] std::optional<std::uint64_t> guid_of(std::string_view name) const;
  [[nodiscard]] std::size_t size() const { return by_guid_.size(); }

 private:
  std::map<std::uint64_t, std::string> by_guid_;
  std::map<std::string, std::uint64_t, std::less<>> by_name_;
};

}  // namespace openflint
