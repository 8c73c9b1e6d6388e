// NodeRegisters: one register (access register by name, named or raw CR-space dword) read on many nodes in parallel.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Result.h"
#include "devices/RegisterLayout.h"
#include "fabric/FabricNode.h"
#include "fwops/registers/RegisterByName.h"
#include "mtcr/inband/MadChannel.h"
#include "mtcr/remote/RemoteDeviceName.h"

namespace openflint {

// What to read: `MTMP` (every field of a catalog access register), `MTMP.temperature` (one
// field), `hw_id` (a CR-space register the catalog names for the node's device) or `0xf0014`
// (a raw CR-space dword).
struct RegisterSelector {
  const RegisterLayout* layout = nullptr;  // an access register
  std::string field;                       // one field of `layout` ("" = all)
  FieldAssignments indexes;                // index fields not given are 0 (e.g. MTMP sensor_index)
  std::string cr_name;                     // a named CR-space register
  std::optional<std::uint32_t> cr_address; // a raw CR-space address (dword aligned)

  // InvalidArgument for an unknown field of a known register or a bad address; a word that is no
  // access register is taken as a CR-space name (checked per device).
  [[nodiscard]] static Result<RegisterSelector> parse(std::string_view text);
  [[nodiscard]] std::string to_string() const;
};

struct NodeRegisterValues {
  FabricNode node;
  bool vendor_access = false;  // the node's device opened (vendor MADs, or its host's bus server)
  std::string path = "in-band";  // "in-band" or "out-of-band HOST" (NodeFirmware::path's words)
  std::string device;          // catalog device name, when it answered
  std::string note;            // why there are no values
  std::vector<std::pair<std::string, std::uint32_t>> values;  // field (or register) name → value
};

// Reads `selector` on every node, one thread per node: the nodes of `remote` (node GUID → the
// device a host's bus server serves, fabric/OutOfBandNodes.h) through that server (access
// registers over its G request, CR-space over its reads), every other node with a LID in-band on
// `channel`. Never fails as a whole: a node without vendor access, whose server fails, or whose
// firmware refuses the register, gets a note.
[[nodiscard]] std::vector<NodeRegisterValues> read_node_registers(
    const std::vector<FabricNode>& nodes, const std::shared_ptr<MadChannel>& channel, const RegisterSelector& selector,
    const std::map<std::uint64_t, RemoteDeviceName>& remote = {});

}  // namespace openflint
