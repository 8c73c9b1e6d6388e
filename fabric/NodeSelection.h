// NodeSelection: which fabric nodes a tool works on (ibfwmgr --node/--exclude/--type/--system-type).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabric/FabricNode.h"
#include "fabric/SystemNaming.h"

namespace openflint {

// Each of `nodes` and `exclude` names nodes by GUID ("0x" and hex digits), LID (decimal) or NAME
// (the system name the name map or topology gives it, else its NodeDescription). Empty `nodes`:
// every node. `type` and `system_type` narrow further: the node's type, and the system type the
// topology file declares for it or the catalog device with that part number or model
// (fabric/SystemType.h) whose PCI device id the node reports.
struct NodeSelection {
  std::vector<std::string> nodes;
  std::vector<std::string> exclude;
  std::optional<FabricNode::Type> type;
  std::string system_type;

  [[nodiscard]] bool selects_all() const {
    return nodes.empty() && exclude.empty() && !type && system_type.empty();
  }
};

// The selection with the names neither the files nor the nodes know resolved by the ibadm name
// server, when one is configured (mtcr/remote/NameClient.h find_name_server; docs/ibadm.md): each
// --node/--exclude NAME that matches no node of `all` by its system name or NodeDescription is
// replaced by the GUID the server gives it ("0x..."). A name the server does not know is left for
// select_nodes to report; without a name server the selection is returned unchanged. Errors: the
// configuration or the server (unreachable, an ambiguous name), with the selector as context.
[[nodiscard]] Result<NodeSelection> resolve_names_by_server(const std::vector<FabricNode>& all, NodeSelection selection,
                                                            const SystemNaming& naming);

// The nodes the selection keeps, in their order. InvalidArgument naming the first selector (a
// --node, an --exclude or the --system-type) that matches no node of `all`, or a GUID or LID
// that does not parse.
[[nodiscard]] Result<std::vector<FabricNode>> select_nodes(const std::vector<FabricNode>& all,
                                                           const NodeSelection& selection, const SystemNaming& naming);
// The same as the indices into `all` of the nodes kept.
[[nodiscard]] Result<std::vector<std::size_t>> select_node_indices(const std::vector<FabricNode>& all,
                                                                   const NodeSelection& selection,
                                                                   const SystemNaming& naming);

}  // namespace openflint
