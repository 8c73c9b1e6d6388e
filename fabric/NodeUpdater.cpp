// NodeUpdater: a node's decision, dry-run plan, and burn (retries, deadline, journal, reset, check).
#include "fabric/NodeUpdater.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/Interrupt.h"
#include "fabric/NodeDevice.h"
#include "fabric/OutOfBand.h"
#include "fwops/Device.h"
#include "fwops/DeviceBurn.h"
#include "fwops/DeviceQuery.h"
#include "fwops/access/StaleLocks.h"
#include "fwops/registers/AdapterReset.h"

namespace openflint {
namespace {

using NodeClock = std::chrono::steady_clock;

// The dry run's estimate: the flash gateway moves 16 bytes per transaction, and a burn programs
// each (a write and its status poll) and reads it back (two more).
constexpr std::uint64_t kGatewayBytes = 16;
constexpr std::uint64_t kRequestsPerGatewayWrite = 4;
constexpr int kRoundTripSamples = 8;  // reads the dry run times per in-band node
constexpr std::uint32_t kHwIdAddress = 0xf0014;
constexpr auto kMaxBackoff = std::chrono::milliseconds(60000);

std::string version_text(const std::optional<FwVersion>& v) { return v ? v->to_string() : std::string(); }

// The one safe reset (fwops/registers/AdapterReset, as `mst reset`): a switch resets in-band; an
// adapter reached in-band is refused with the reason (it needs a PCI reset on its host). Out-of-
// band the host's bus server resets it when it allows resets; otherwise the firmware reset is
// armed for the host's next warm reboot (level 4 through the register channel) and said so.
void reset_updated_node(Device& device, NodeUpdate& out) {
  if (auto stop = check_interrupted(); !stop) {  // the burn stands; the reset is left to the user
    out.message = "burned; not reset: " + stop.error().message();
    return;
  }
  ResetOptions options;
  options.arm_when_server_refuses = out.before.remote.has_value();
  auto plan = plan_reset(device, options);
  auto reset = plan ? run_reset(device, *plan, options) : Result<ResetReport>(make_error(std::move(plan).error()));
  if (!reset) {
    out.message = (out.before.remote ? "burned; not reset out-of-band: " : "burned; not reset: ") +
                  reset.error().message();
    return;
  }
  if (!reset->plan.resets_now) {
    out.activation = NodeActivation::Armed;
    out.message = "armed, runs after the next warm reboot" +
                  (reset->plan.server_refusal.empty() ? std::string()
                                                      : " (the server does not reset: " + reset->plan.server_refusal + ")");
    return;
  }
  out.reset_done = true;
  if (reset->plan.by_server) out.message = "reset by the bus server";
}

// The round trip of one in-band read to the node, timed over a few reads of its hw id; unset
// out-of-band or when a read fails.
std::optional<double> measure_round_trip(Device& device) {
  const auto start = NodeClock::now();
  for (int i = 0; i < kRoundTripSamples; ++i)
    if (!device.access().read32(kHwIdAddress)) return std::nullopt;
  return std::chrono::duration<double, std::micro>(NodeClock::now() - start).count() / kRoundTripSamples;
}

// The dry run's plan (NodeUpdatePlan). The node's device is opened (in-band to time a few reads,
// out-of-band to ask its server what a reset would do); nothing is written.
NodeUpdatePlan plan_node_update(const NodeFirmware& node, const FirmwareFile& file,
                                const std::shared_ptr<MadChannel>& channel, const FabricUpdateOptions& options) {
  NodeUpdatePlan plan;
  plan.image_bytes = file.query.image_size != 0 ? file.query.image_size : file.bytes.size();
  plan.requests = (plan.image_bytes + kGatewayBytes - 1) / kGatewayBytes * kRequestsPerGatewayWrite;
  plan.request_unit = node.remote ? "bus requests" : "MADs";
  auto device = open_node_device(node, channel);
  if (device && !node.remote) plan.round_trip_us = measure_round_trip(*device);
  const double rtt = plan.round_trip_us ? *plan.round_trip_us : static_cast<double>(options.assumed_round_trip.count());
  plan.seconds = static_cast<double>(plan.requests) * rtt / 1e6;
  if (node.node.type == FabricNode::Type::Switch && !node.remote) {
    plan.can_activate = true;
    plan.activation = "switch software reset (in-band)";
  } else if (!node.remote) {
    plan.activation = "no: an adapter reached in-band needs a PCI reset on its host";
  } else {
    ResetOptions reset;
    reset.arm_when_server_refuses = true;
    auto reset_plan = device ? plan_reset(*device, reset) : Result<ResetPlan>(make_error(std::move(device).error()));
    if (!reset_plan) {
      plan.activation = "no: " + reset_plan.error().message();
    } else if (!reset_plan->blockers.empty()) {
      plan.activation = "no: " + reset_plan->blockers.front().why;
    } else {
      plan.can_activate = true;
      plan.activation = reset_plan->by_server && reset_plan->resets_now
                            ? "reset by the bus server"
                            : "arm MFRL level 4 (runs after the next warm reboot)";
    }
  }
  if (!options.reset && plan.can_activate) plan.activation += " (with --reset)";
  return plan;
}

bool transient(ErrorCode code) { return code == ErrorCode::Timeout || code == ErrorCode::Busy || code == ErrorCode::Io; }

// One burn attempt on an opened device: the burn, the check of the flash (verified), the reset
// and what runs after. Returns the burn's error (the node's state is in `out`).
Result<void> burn_attempt(Device& device, const FirmwareFile& file, const FabricUpdateOptions& options,
                          std::size_t index, NodeUpdate& out) {
  BurnOptions burn;  // failsafe, PSID and the board's identity kept
  if (options.progress) burn.progress = [&options, index](const BurnProgress& p) { options.progress(index, p); };
  OF_ASSIGN(const BurnReport report, burn_device(device, file.bytes, burn));  // through the firmware where it takes burns
  out.new_copy_address = report.new_copy_address;
  out.identity_from = to_string(report.identity.uids_from);
  node_update_event(options, index, out, JournalState::Burned);
  // Verified: the image the boot ROM now boots (the flash's listing) carries the new version.
  OF_ASSIGN_CTX(const ImageQuery on_flash, listed_flash_image(device), "reading back the burned image");
  if (on_flash.fw_version != out.image_version)
    return make_error(ErrorCode::Mismatch, "the flash holds " + version_text(on_flash.fw_version) +
                                               " after the burn, not " + version_text(out.image_version));
  node_update_event(options, index, out, JournalState::Verified);
  return {};
}

// A node the journal left "started": the run that burned it was killed, maybe holding the
// device's flash lock. The journal's flock proves that run is gone, so what it held is freed.
void free_locks_of_killed_run(Device& device, NodeUpdate& out) {
  if (!out.journaled || out.journaled->state != JournalState::Started) return;
  auto freed = reclaim_stale_locks(device);
  out.message = "resumed after a run stopped mid-burn (pid " + std::to_string(out.journaled->pid) + ")";
  if (freed && !freed->freed.empty()) out.message += "; its stale flash lock was freed";
}

// A node the journal left "burned" (killed while the burned image was read back) may still hold
// the flash lock the killed run took, so the inventory could not read its flash. The journal's
// flock proves that run is gone: its locks are freed and the flash read again, so the decision
// rests on the flash and a burn that completed is not burned again. (These reads are not in the
// node's MADs, as the inventory's are not.)
NodeFirmware reread_after_killed_run(const NodeFirmware& node, const std::shared_ptr<MadChannel>& channel,
                                     NodeUpdate& out) {
  const bool burned = out.journaled && out.journaled->state == JournalState::Burned;
  if (!burned || node.flash_fw_version || node.recovery) return node;
  auto device = open_node_device(node, channel);
  if (!device) return node;
  auto freed = reclaim_stale_locks(*device);
  NodeFirmware checked = node;
  if (auto image = listed_flash_image(*device)) {
    checked.flash_fw_version = image->fw_version;
    checked.note.clear();  // it said why the flash could not be read
  }
  if (freed && !freed->freed.empty())
    out.message = "a run killed mid-burn (pid " + std::to_string(out.journaled->pid) + ") held its flash lock: freed";
  return checked;
}

}  // namespace

void node_update_event(const FabricUpdateOptions& options, std::size_t index, NodeUpdate& out, JournalState state,
                       const std::string& message, int attempt) {
  if (options.journal) {
    auto written = options.journal->record(JournalEntry{.guid = out.before.node.guid,
                                                        .lid = out.before.node.lid,
                                                        .state = state,
                                                        .version = version_text(out.image_version),
                                                        .image = out.image,
                                                        .message = message});
    if (!written && out.message.find("journal") == std::string::npos)
      out.message += (out.message.empty() ? "" : "; ") + written.error().message();
  }
  if (options.on_event)
    options.on_event(NodeUpdateEvent{.node = index, .state = state, .attempt = attempt, .message = message});
}

const FirmwareFile* decide_node_update(const NodeFirmware& node, const ImageSet& images,
                                       const std::shared_ptr<MadChannel>& channel, const FabricUpdateOptions& options,
                                       std::size_t index, NodeUpdate& out) {
  out.before = node;
  if (!node.reachable()) {
    out.status = NodeUpdateStatus::NoAccess;
    out.message = node.note;
    return nullptr;
  }
  auto file = images.find(node.psid);
  if (!file) {
    out.status = NodeUpdateStatus::NoImage;
    out.message = file.error().message();
    return nullptr;
  }
  out.image = (*file)->label;
  out.image_version = (*file)->query.fw_version;
  if (options.journal) out.journaled = options.journal->last(node.node.guid, version_text(out.image_version));
  if (!options.dry_run) out.before = reread_after_killed_run(node, channel, out);
  // Up to date when the flash already holds the image's version (it may still wait for a
  // reset to run), or, when the flash could not be read, when that version runs. The journal
  // is never taken on its word: a node it calls done whose flash says otherwise is burned.
  const auto& have = out.before.flash_fw_version ? out.before.flash_fw_version : node.fw_version;
  // A burn the journal left "started" was killed before it returned: its last steps (the new
  // copy's magic, the boot address, the old copy's magic zeroed) may be half done, both copies
  // with magic. The listing then names the new copy (the boot-address register points at it)
  // while a power-on would boot the old one: such a node is burned again, not taken as done.
  const bool killed_mid_burn = out.journaled && out.journaled->state == JournalState::Started;
  if (!options.force && !killed_mid_burn && !node.recovery && have && have == out.image_version) {
    out.status = NodeUpdateStatus::UpToDate;
    if (node.fw_version != have)
      out.message += (out.message.empty() ? "" : "; ") + std::string("on flash; runs after a reset");
    if (out.journaled && out.journaled->state != JournalState::UpToDate)
      out.message += (out.message.empty() ? "" : "; ") + std::string("completed by an earlier run (journal: ") +
                     to_string(out.journaled->state) + ")";
    if (!options.dry_run) node_update_event(options, index, out, JournalState::UpToDate);
    return nullptr;
  }
  if (options.dry_run) {
    out.status = NodeUpdateStatus::WouldUpdate;
    out.plan = plan_node_update(node, **file, channel, options);
    return nullptr;
  }
  if (out.journaled && (out.journaled->state == JournalState::Burned || out.journaled->state == JournalState::Verified ||
                        out.journaled->state == JournalState::Activated))
    out.message = "the journal says " + std::string(to_string(out.journaled->state)) + " but the flash holds " +
                  version_text(have) + ": burned again";
  return *file;
}

void burn_node_update(const NodeFirmware& node, const FirmwareFile& file, const std::shared_ptr<MadChannel>& channel,
                      const FabricUpdateOptions& options, std::size_t index, NodeUpdate& out) {
  const auto start = NodeClock::now();
  const auto deadline = options.node_timeout.count() > 0 ? start + options.node_timeout : NodeClock::time_point::max();
  const ThreadDeadline node_deadline(deadline);  // the burn stops at a safe point past it
  auto backoff = options.retry_backoff;
  for (int attempt = 1;; ++attempt) {
    out.attempts = attempt;
    node_update_event(options, index, out, JournalState::Started, out.message, attempt);
    auto device = open_node_device(node, channel);
    Result<void> burned = device ? Result<void>{} : Result<void>(make_error(std::move(device).error()));
    if (device) {
      if (attempt == 1) free_locks_of_killed_run(*device, out);
      burned = burn_attempt(*device, file, options, index, out);
      out.mads += device->mads_sent();
    }
    if (burned) {
      out.status = NodeUpdateStatus::Updated;
      if (options.reset) reset_updated_node(*device, out);
      // Whether the new firmware runs: asked anew (MGIR), whatever the reset did.
      device->invalidate_running_firmware();
      out.running_after = device->running_firmware();
      const auto& running = out.running_after;
      if (running && running->image && running->image->fw_version && running->image->fw_version == out.image_version) {
        out.activation = NodeActivation::Running;
        node_update_event(options, index, out, JournalState::Activated);
      } else if (out.activation != NodeActivation::Armed) {
        out.activation = running && running->image ? NodeActivation::Pending : NodeActivation::Unknown;
      }
      return;
    }
    const ErrorCode code = burned.error().code();
    const bool past_deadline = NodeClock::now() + backoff >= deadline;
    if (!transient(code) || attempt > options.retries || past_deadline || interrupted()) {
      out.status = NodeUpdateStatus::Failed;
      out.message = burned.error().message();
      if (code == ErrorCode::Timeout && NodeClock::now() >= deadline)
        out.message += " (the node's timeout of " + std::to_string(options.node_timeout.count()) + " s passed)";
      if (attempt > 1) out.message += " (after " + std::to_string(attempt) + " attempts)";
      node_update_event(options, index, out, JournalState::Failed, out.message, attempt);
      return;
    }
    node_update_event(options, index, out, JournalState::Failed, "retrying after: " + burned.error().message(), attempt);
    for (const auto until = NodeClock::now() + backoff; NodeClock::now() < until && !interrupted();)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a stop signal ends the wait
    backoff = std::min(backoff * 2, kMaxBackoff);
  }
}

}  // namespace openflint
