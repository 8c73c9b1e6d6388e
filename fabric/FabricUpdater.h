// FabricUpdater: failsafe-burns the right image (by PSID) into every reachable device, a bounded number at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fabric/ImageSet.h"
#include "fabric/NodeFirmware.h"
#include "fabric/UpdateJournal.h"
#include "fwops/BurnTypes.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/inband/MadChannel.h"

namespace openflint {

// How many nodes burn at once when --parallel is not given. Each node keeps one MAD outstanding
// (the flash gateway takes one command at a time: a write, then its status, so a device has no
// window to fill), so N nodes keep N MADs in flight on the one umad port: 16 stays far below
// what an HCA's QP1 and a switch's management path take, keeps a 2-core host's CPU under the
// MAD rate (measured: docs/ibfwmgr.md), and a failing image cannot reach more than 16 nodes
// before the failure budget stops new starts.
inline constexpr std::size_t kDefaultUpdateParallel = 16;

// --max-failures N or P%: how many nodes may fail before no new node starts (the ones under
// way finish). Unlimited by default.
struct FailureBudget {
  std::optional<std::size_t> count;   // N
  std::optional<double> percent;      // P (0..100) of the nodes planned for a burn
  // Failures allowed among `planned` burns (P% rounded down); SIZE_MAX when unlimited.
  [[nodiscard]] std::size_t allowed(std::size_t planned) const;
};
// "N" or "P%" (P may have a fraction: "2.5%"); InvalidArgument otherwise.
[[nodiscard]] Result<FailureBudget> parse_failure_budget(const std::string& text);

// What a node is doing, told as it changes (from the node's thread; the front end prints it).
struct NodeUpdateEvent {
  std::size_t node = 0;  // index in `nodes`
  JournalState state = JournalState::Planned;
  int attempt = 1;        // 1, then 2... for retries
  std::string message;    // a failure's error, a retry's reason
};

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
  // Called as a node's state changes (planned, started, burned, verified, activated, failed,
  // up-to-date, not-started); from the node's thread. Unset: none.
  std::function<void(const NodeUpdateEvent&)> on_event;
  std::size_t parallel = kDefaultUpdateParallel;  // nodes burning at once (0 is taken as 1)
  FailureBudget max_failures;
  // A node's burn that fails with a transient error (Timeout, Busy, Io) is tried again, up to
  // `retries` more times, after retry_backoff, doubled each time (at most 60 s). A failsafe
  // burn may be repeated: the differential write rewrites only what differs.
  int retries = 2;
  std::chrono::milliseconds retry_backoff{2000};
  // The most one node may take, retries included (0: no limit): past it the burn stops at its
  // next safe point (core/Interrupt.h ThreadDeadline; the device boots its old image) and the
  // node fails with Timeout.
  std::chrono::seconds node_timeout{3600};
  // The dry run's time estimate per MAD when a node's round trip cannot be measured (the plan
  // times a few reads of each in-band node).
  std::chrono::microseconds assumed_round_trip{100};
  // Where each node's progress is recorded (fabric/UpdateJournal.h); null: nowhere. With an
  // earlier run's records, a node the journal left "started" (killed mid-burn) has its stale
  // flash lock freed before it is burned again; a node is never skipped on the journal's word:
  // its flash decides (the image's version on flash: up to date).
  UpdateJournal* journal = nullptr;
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
  std::optional<double> round_trip_us;  // measured on the node (a few reads); unset: assumed
  double seconds = 0;                   // requests x the round trip
};

// The dry run's totals: the nodes' requests, and the wall time of burning them `parallel` at a
// time (each node's seconds scheduled on the first free slot, longest first).
struct UpdatePlanTotal {
  std::size_t nodes = 0;
  std::uint64_t requests = 0;
  double seconds = 0;
  std::size_t parallel = 1;
};

// NotStarted: the failure budget was spent (or a stop signal came) before the node's turn.
enum class NodeUpdateStatus { Updated, UpToDate, NoImage, NoAccess, Failed, WouldUpdate, NotStarted };
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
  int attempts = 0;                      // burns tried (retries included)
  std::optional<JournalEntry> journaled;  // what an earlier run's journal said of this node
};

// options.parallel worker threads on the shared channel take the nodes to burn in order; a node's
// failure never stops the others, until more than the failure budget failed: then no new node
// starts (NotStarted). A stop signal (core/Interrupt.h) does the same at once: every burn under
// way ends at its next safe point (Failed, the device booting its old image), no node starts one
// after it (NotStarted), and no device is reset.
[[nodiscard]] std::vector<NodeUpdate> update_fabric(const std::vector<NodeFirmware>& nodes, const ImageSet& images,
                                                    const std::shared_ptr<MadChannel>& channel,
                                                    const FabricUpdateOptions& options);

// The dry run's totals over `updates` (the WouldUpdate nodes' plans).
[[nodiscard]] UpdatePlanTotal plan_total(const std::vector<NodeUpdate>& updates, std::size_t parallel);

}  // namespace openflint
