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
  // Reset after the burn so the new firmware runs: switches in-band by a software reset (SwReset
  // MAD); adapters out-of-band by their host's bus server (X, when it allows resets), else by
  // arming the firmware reset for the host's next warm reboot (MFRL level 4 through G); adapters
  // in-band cannot (they need a PCI reset on their host).
  bool reset = false;
  bool force = false;  // burn even when the device already has the image's version
  bool dry_run = false;  // decide every node's status, write nothing (WouldUpdate instead of a burn)
  // Called from a node's thread as its burn goes: the node's index in `nodes` and the burn's
  // progress (stage, bytes); a front end shows it per node. Unset: none.
  std::function<void(std::size_t node, const BurnProgress&)> progress;
};

// Whether the burned firmware runs, asked after the update (MGIR, in-band or through the bus
// server's register channel): Running (the image's version runs), Armed (a firmware reset is
// armed: it runs after the host's next warm reboot), Pending (on flash; runs after a reset),
// Unknown (the running firmware could not be asked, e.g. through a legacy bus server).
enum class NodeActivation { None, Running, Armed, Pending, Unknown };
[[nodiscard]] const char* to_string(NodeActivation a);  // "running", "armed", "pending", "unknown"; None: ""

// The dry run's plan for a node that would be updated (docs/inband.md, "ibfwmgr: selection,
// dry-run plan, activation, no fabric").
struct NodeUpdatePlan {
  std::uint64_t image_bytes = 0;  // the image proper (its copy on flash), else the file's size
  // A burn's requests, estimated from image_bytes: 4 per 16 bytes through the flash gateway
  // (programming and reading back); a burn through the running firmware takes far fewer.
  std::uint64_t requests = 0;
  std::string request_unit;  // "MADs" (in-band) or "bus requests" (out-of-band)
  // How the new firmware would be made to run: "switch software reset (in-band)", "reset by the
  // bus server", "arm MFRL level 4 (runs after the next warm reboot)", or "no: <why>".
  std::string activation;
  bool can_activate = false;
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
  std::optional<RunningFirmware> running_after;  // MGIR after the burn (and the reset)
  NodeActivation activation = NodeActivation::None;  // set for burned nodes
  std::optional<NodeUpdatePlan> plan;                // set by a dry run for WouldUpdate
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
