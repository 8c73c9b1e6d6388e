// NodeFirmware: what one fabric node runs (device, PSID, FW version) or why it cannot be asked.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabric/FabricNode.h"
#include "image/ImageQuery.h"
#include "mtcr/inband/MadChannel.h"
#include "mtcr/remote/RemoteDeviceName.h"

namespace openflint {

struct NodeFirmware {
  FabricNode node;
  bool vendor_access = false;  // the node answers vendor CR-space MADs
  std::string note;            // when not: why (e.g. "no vendor access: ...")
  std::string device;          // catalog name from the hw id
  std::uint32_t hw_id = 0;
  std::string psid;
  std::string psid_source;     // "running" (MGIR) or "flash" (the image on flash)
  std::optional<FwVersion> fw_version;  // running version (MGIR), else the flash image's
  std::optional<FwVersion> flash_fw_version;  // the image on flash (differs after an update until a reset)
  bool recovery = false;       // MGIR says no firmware runs
  // Set when the node is reached out-of-band: a host's bus server serves the device whose flash
  // holds this node's GUID (fabric/OutOfBand.h); then queries and burns go through it, not MADs.
  std::optional<RemoteDeviceName> remote;

  // Whether its firmware can be queried and updated: vendor MADs answer, or a host serves it.
  [[nodiscard]] bool reachable() const { return vendor_access || remote.has_value(); }
  // "in-band" or "out-of-band HOST".
  [[nodiscard]] std::string path() const { return remote ? "out-of-band " + to_string(remote->server) : "in-band"; }
};

// Whether an inventory also queries the image on flash (a few hundred MADs per node) or stops at
// the ids and MGIR (`mst status`: fast, the running firmware only).
enum class FlashQuery { Read, Skip };

// How many nodes take_inventory inspects at once (each is a few hundred MADs in turn).
inline constexpr std::size_t kInventoryWorkers = 16;

// Asks every node with a LID, kInventoryWorkers at a time (all on `channel`): hw id at
// 0xf0014 (catalog), MGIR (running FW, PSID) and the query of the image on flash (its tables
// and info sections only: a few hundred MADs), which also stands in when MGIR is not answered.
// Never fails as a whole: a node's problem is recorded in its note. FlashQuery::Skip leaves the
// flash alone (flash_fw_version stays empty).
[[nodiscard]] std::vector<NodeFirmware> take_inventory(const std::vector<FabricNode>& nodes,
                                                       const std::shared_ptr<MadChannel>& channel,
                                                       FlashQuery flash = FlashQuery::Read);

// The running FW of every node that answers vendor MADs on `ca`/`port` (MGIR; the flash left
// alone), by node GUID: ibls's column and the web console's. Empty when no MAD channel opens (a
// listing stands without it).
[[nodiscard]] std::map<std::uint64_t, std::string> running_fw_versions(const std::string& ca, int port,
                                                                       const std::vector<FabricNode>& nodes);
// The same over a channel the caller holds.
[[nodiscard]] std::map<std::uint64_t, std::string> running_fw_versions(const std::vector<FabricNode>& nodes,
                                                                       const std::shared_ptr<MadChannel>& channel);

// One node (used by take_inventory and the updater).
[[nodiscard]] NodeFirmware inspect_node(const FabricNode& node, const std::shared_ptr<MadChannel>& channel,
                                        FlashQuery flash = FlashQuery::Read);

}  // namespace openflint
