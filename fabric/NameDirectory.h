// NameDirectory: the name server's entries — every node the sweep and the bus servers found, by system name, GUID and LID.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "fabric/SystemNaming.h"
#include "fwops/access/RemoteListing.h"
#include "fabric/FabricNode.h"
#include "mtcr/remote/NameProtocol.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

class NameDirectory {
 public:
  NameDirectory() = default;
  // At most kNameMaxEntries entries are kept. Entries that share a name are each renamed
  // NAME/GUID (NAME/device when the GUID is not known); the bare NAME then answers "ambiguous"
  // with their names.
  [[nodiscard]] static NameDirectory from_entries(std::vector<NameEntry> entries, std::vector<std::string> problems = {});

  // NotFound "not found: NAME"; InvalidArgument "ambiguous: NAME is A, B".
  [[nodiscard]] Result<NameEntry> lookup(std::string_view name) const;
  [[nodiscard]] Result<NameEntry> by_guid(std::uint64_t guid) const;
  [[nodiscard]] Result<NameEntry> by_lid(std::uint16_t lid) const;

  [[nodiscard]] const std::vector<NameEntry>& entries() const { return entries_; }
  // What could not be collected (a sweep that failed, a host that did not answer), one line each.
  [[nodiscard]] const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<NameEntry> entries_;
  std::map<std::string, std::vector<std::string>, std::less<>> ambiguous_;  // shared name -> the entries' names
  std::vector<std::string> problems_;
};

// Where the name server's entries come from.
struct NameSources {
  bool sweep = true;  // the fabric, in-band (libibnetdisc), on `ca`/`port`
  std::string ca;
  int port = 0;
  std::vector<RemoteHost> hosts;  // bus servers whose devices (by the node GUID their flash holds) are nodes too
  SystemNamingFiles naming;       // name map and topology, read at every collection
};

// The nodes of the sweep, each named by the name map / its NodeDescription (SystemNaming; its
// GUID when it has no name), opened out-of-band when a host's device holds its GUID, else by
// lid-N; then every host's device no swept node matched, named by the map or its GUID. Never
// fails as a whole: what could not be read is a problem line (a naming file that does not parse
// included: the nodes then go by their descriptions).
[[nodiscard]] NameDirectory collect_names(const NameSources& sources);

// The same join on what was already found (tests, and collect_names itself).
[[nodiscard]] NameDirectory join_names(const std::vector<FabricNode>& nodes, const std::vector<RemoteHostStatus>& hosts,
                                       const SystemNaming& naming, std::vector<std::string> problems);

}  // namespace openflint
