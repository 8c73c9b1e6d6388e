// FabricUpdater: the per-node update (pick image, burn, reset) and the parallel driver.
#include "fabric/FabricUpdater.h"

#include "core/Interrupt.h"
#include "fwops/registers/AdapterReset.h"

#include <chrono>
#include <thread>

#include "fwops/Device.h"
#include "fwops/DeviceBurn.h"
#include "fwops/burn/FailsafeBurner.h"
#include "fabric/OutOfBand.h"

namespace openflint {
namespace {

using Clock = std::chrono::steady_clock;

// The dry run's estimate: the flash gateway moves 16 bytes per transaction, and a burn programs
// each (a write and its status poll) and reads it back (two more).
constexpr std::uint64_t kGatewayBytes = 16;
constexpr std::uint64_t kRequestsPerGatewayWrite = 4;

// The one safe reset (fwops/registers/AdapterReset, as `mst reset`): a switch resets in-band; an
// adapter reached in-band is refused with the reason (it needs a PCI reset on its host). Out-of-
// band the host's bus server resets it when it allows resets; otherwise the firmware reset is
// armed for the host's next warm reboot (level 4 through the register channel) and said so.
void reset_node(Device& device, NodeUpdate& out) {
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

void burn_node(Device& device, const FirmwareFile& file, const FabricUpdateOptions& options, std::size_t index,
               NodeUpdate& out) {
  BurnOptions burn;  // failsafe, PSID and the board's identity kept
  if (options.progress) burn.progress = [&options, index](const BurnProgress& p) { options.progress(index, p); };
  auto report = burn_device(device, file.bytes, burn);  // through the firmware where it takes burns
  if (!report) {
    out.status = NodeUpdateStatus::Failed;
    out.message = report.error().message();
    return;
  }
  out.status = NodeUpdateStatus::Updated;
  out.new_copy_address = report->new_copy_address;
  out.identity_from = to_string(report->identity.uids_from);
  if (options.reset) reset_node(device, out);
  // Whether the new firmware runs: asked anew (MGIR), whatever the reset did.
  device.invalidate_running_firmware();
  out.running_after = device.running_firmware();
  const auto& running = out.running_after;
  if (running && running->image && running->image->fw_version && running->image->fw_version == out.image_version)
    out.activation = NodeActivation::Running;
  else if (out.activation != NodeActivation::Armed)
    out.activation = running && running->image ? NodeActivation::Pending : NodeActivation::Unknown;
}

// The dry run's plan (NodeUpdatePlan). An out-of-band adapter's device is opened to ask its
// server what a reset would do; nothing is written.
NodeUpdatePlan plan_node_update(const NodeFirmware& node, const FirmwareFile& file,
                                const std::shared_ptr<MadChannel>& channel, const FabricUpdateOptions& options) {
  NodeUpdatePlan plan;
  plan.image_bytes = file.query.image_size != 0 ? file.query.image_size : file.bytes.size();
  plan.requests = (plan.image_bytes + kGatewayBytes - 1) / kGatewayBytes * kRequestsPerGatewayWrite;
  plan.request_unit = node.remote ? "bus requests" : "MADs";
  if (node.node.type == FabricNode::Type::Switch && !node.remote) {
    plan.can_activate = true;
    plan.activation = "switch software reset (in-band)";
  } else if (!node.remote) {
    plan.activation = "no: an adapter reached in-band needs a PCI reset on its host";
  } else {
    auto device = open_node_device(node, channel);
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

void update_node(const NodeFirmware& node, const ImageSet& images, const std::shared_ptr<MadChannel>& channel,
                 const FabricUpdateOptions& options, std::size_t index, NodeUpdate& out) {
  out.before = node;
  if (!node.reachable()) {
    out.status = NodeUpdateStatus::NoAccess;
    out.message = node.note;
    return;
  }
  auto file = images.find(node.psid);
  if (!file) {
    out.status = NodeUpdateStatus::NoImage;
    out.message = file.error().message();
    return;
  }
  out.image = (*file)->label;
  out.image_version = (*file)->query.fw_version;
  // Up to date when the flash already holds the image's version (it may still wait for a
  // reset to run), or, when the flash could not be read, when that version runs.
  const auto& have = node.flash_fw_version ? node.flash_fw_version : node.fw_version;
  if (!options.force && !node.recovery && have && have == out.image_version) {
    out.status = NodeUpdateStatus::UpToDate;
    if (node.fw_version != have) out.message = "on flash; runs after a reset";
    return;
  }
  if (options.dry_run) {
    out.status = NodeUpdateStatus::WouldUpdate;
    out.plan = plan_node_update(node, **file, channel, options);
    return;
  }
  if (auto stop = check_interrupted(); !stop) {  // a stop signal: no node starts a burn after it
    out.status = NodeUpdateStatus::Failed;
    out.message = stop.error().message() + ": not started; the device runs what it ran";
    return;
  }
  auto device = open_node_device(node, channel);
  if (!device) {
    out.status = NodeUpdateStatus::Failed;
    out.message = device.error().message();
    return;
  }
  burn_node(*device, **file, options, index, out);
  out.mads = device->mads_sent();
}

}  // namespace

const char* to_string(NodeActivation a) {
  switch (a) {
    case NodeActivation::None: return "";
    case NodeActivation::Running: return "running";
    case NodeActivation::Armed: return "armed";
    case NodeActivation::Pending: return "pending";
    case NodeActivation::Unknown: return "unknown";
  }
  return "";
}

const char* to_string(NodeUpdateStatus s) {
  switch (s) {
    case NodeUpdateStatus::Updated: return "updated";
    case NodeUpdateStatus::UpToDate: return "up-to-date";
    case NodeUpdateStatus::NoImage: return "no-image";
    case NodeUpdateStatus::NoAccess: return "no-access";
    case NodeUpdateStatus::Failed: return "failed";
    case NodeUpdateStatus::WouldUpdate: return "would-update";
  }
  return "failed";
}

std::vector<NodeUpdate> update_fabric(const std::vector<NodeFirmware>& nodes, const ImageSet& images,
                                      const std::shared_ptr<MadChannel>& channel, const FabricUpdateOptions& options) {
  std::vector<NodeUpdate> out(nodes.size());
  std::vector<std::thread> workers;
  workers.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    workers.emplace_back([&, i] {
      const auto start = Clock::now();
      update_node(nodes[i], images, channel, options, i, out[i]);
      out[i].seconds = std::chrono::duration<double>(Clock::now() - start).count();
    });
  }
  for (auto& t : workers) t.join();
  return out;
}

}  // namespace openflint
