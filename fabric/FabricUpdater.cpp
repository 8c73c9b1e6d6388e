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
  if (!options.reset) return;
  if (auto stop = check_interrupted(); !stop) {  // the burn stands; the reset is left to the user
    out.message = "burned; not reset: " + stop.error().message();
    return;
  }
  // The one safe reset (fwops/registers/AdapterReset, as `mst reset`): a switch resets in-band; an adapter
  // reached in-band is refused with the reason (it needs a PCI reset on its host).
  // Out-of-band the bus protocol carries CR-space only: the opened remote Device refuses, and the
  // burn still stands (the new firmware runs after a reset on the device's host).
  auto plan = plan_reset(device, ResetOptions{});
  auto reset = plan ? run_reset(device, *plan, ResetOptions{}) : Result<ResetReport>(make_error(std::move(plan).error()));
  if (!reset) {
    out.message = (out.before.remote ? "burned; not reset out-of-band: " : "burned; not reset: ") +
                  reset.error().message();
    return;
  }
  out.reset_done = true;
  out.running_after = reset->running_after;
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
