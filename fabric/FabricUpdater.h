// FabricUpdater: failsafe-burns the right image (by PSID) into every reachable device in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fabric/ImageSet.h"
#include "fabric/NodeFirmware.h"
#include "fwops/BurnTypes.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/inband/MadChannel.h"

namespace openflint {

struct FabricUpdateOptions {
  bool reset = false;  // reset after the burn (switches: SwReset MAD; adapters cannot in-band)
  bool force = false;  // burn even when the device already has the image's version
  bool dry_run = false;  // decide every node's status, write nothing (WouldUpdate instead of a burn)
  // Called from a node's thread as its burn goes: the node's index in `nodes` and the burn's
  // progress (stage, bytes); a front end shows it per node. Unset: none.
  std::function<void(std::size_t node, const BurnProgress&)> progress;
};

enum class NodeUpdateStatus { Updated, UpToDate, NoImage, NoAccess, Failed, WouldUpdate };
[[nodiscard]] const char* to_string(NodeUpdateStatus s);

struct NodeUpdate {
  NodeFirmware before;
  NodeUpdateStatus status = NodeUpdateStatus::Failed;
  std::string message;  // error, or a note (e.g. "reset needs a PCI-level reset")
  std::string image;    // label of the image used
  std::optional<FwVersion> image_version;
  std::uint64_t new_copy_address = 0;
  std::string identity_from;  // where the burned GUIDs/MACs came from ("device": the board's own)
  bool reset_done = false;
  std::optional<RunningFirmware> running_after;  // MGIR after the reset
  std::uint64_t mads = 0;
  double seconds = 0;
};

// One thread per node on the shared channel; a node's failure never stops the others. A stop
// signal (core/Interrupt.h) does: every burn under way ends at its next safe point (Failed, the
// device booting its old image), no node starts one after it, and no device is reset.
[[nodiscard]] std::vector<NodeUpdate> update_fabric(const std::vector<NodeFirmware>& nodes, const ImageSet& images,
                                                    const std::shared_ptr<MadChannel>& channel,
                                                    const FabricUpdateOptions& options);

}  // namespace openflint
