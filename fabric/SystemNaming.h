// SystemNaming: the administrator's names for fabric nodes (name map and topology file), loaded alike for every fabric tool.
#pragma once

#include <optional>
#include <string>

#include "core/Result.h"
#include "fabric/FabricNode.h"
#include "fabric/SystemNameMap.h"
#include "fabric/Topology.h"

namespace openflint {

// The files a tool was given (empty: not given).
struct SystemNamingFiles {
  std::string names;     // name map: "NAME GUID [WHERE]" per line (SystemNameMap)
  std::string topology;  // IBDM topology file (Topology)
};

class SystemNaming {
 public:
  // Reads and parses the files given. A file that cannot be read keeps its error (NotFound, Io,
  // ...); one that does not parse is InvalidArgument "FILE:LINE: why".
  [[nodiscard]] static Result<SystemNaming> load(const SystemNamingFiles& files);

  [[nodiscard]] const SystemNameMap& map() const { return map_; }
  [[nodiscard]] const Topology* topology() const { return topology_ ? &*topology_ : nullptr; }

  [[nodiscard]] SystemLocation locate(const FabricNode& node) const { return map_.locate(node); }
  // The node's system name, else its GUID ("0x0002c9...") so that every node has a name.
  [[nodiscard]] std::string name_or_guid(const FabricNode& node) const;
  // The type the topology file declares for the node's system; empty without one.
  [[nodiscard]] std::string declared_type(const FabricNode& node) const;

 private:
  SystemNameMap map_;
  std::optional<Topology> topology_;
};

// "0x" and 16 hex digits: how fabric tools print a GUID.
[[nodiscard]] std::string guid_text(std::uint64_t guid);

}  // namespace openflint
