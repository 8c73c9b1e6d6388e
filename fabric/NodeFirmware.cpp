// NodeFirmware: per-node in-band inspection (hw id, MGIR, flash image as a fallback).
#include "fabric/NodeFirmware.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "flash/FlashDriver.h"
#include "fabric/NodeDevice.h"
#include "fwops/Device.h"
#include "fwops/DeviceQuery.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace {

void from_flash(Device& device, NodeFirmware& out) {
  auto image = listed_flash_image(device);
  if (!image) {
    out.note = image.error().message();
    return;
  }
  out.flash_fw_version = image->fw_version;
  if (!out.psid.empty()) return;  // the running firmware said which board this is
  out.psid = image->psid;
  out.psid_source = "flash";
  out.fw_version = image->fw_version;
}

}  // namespace

NodeFirmware inspect_node(const FabricNode& node, const std::shared_ptr<MadChannel>& channel, FlashQuery flash) {
  NodeFirmware out;
  out.node = node;
  auto device = open_node_device(node, channel);
  if (!device) {
    out.note = device.error().message();
    return out;
  }
  out.vendor_access = true;
  out.device = std::string(device->info().name);
  out.hw_id = device->info().hw_id;
  const auto running = device->running_firmware();
  if (running && running->recovery) {
    out.recovery = true;
    out.note = "flash recovery mode (no firmware runs)";
  }
  if (running && running->image && !running->image->psid.empty()) {
    out.psid = running->image->psid;
    out.psid_source = "running";
    out.fw_version = running->image->fw_version;
  }
  if (flash == FlashQuery::Read) from_flash(*device, out);
  return out;
}

std::vector<NodeFirmware> take_inventory(const std::vector<FabricNode>& nodes,
                                         const std::shared_ptr<MadChannel>& channel, FlashQuery flash) {
  std::vector<NodeFirmware> out(nodes.size());
  // A bounded pool (a thread per node cost 8 MiB of stack each: a 1,024-node fabric's listing
  // ran out of address space); the workers take the nodes in order.
  std::atomic<std::size_t> next{0};
  const std::size_t count = std::min(nodes.size(), kInventoryWorkers);
  std::vector<std::thread> workers;
  workers.reserve(count);
  for (std::size_t w = 0; w < count; ++w) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < nodes.size(); i = next++) out[i] = inspect_node(nodes[i], channel, flash);
    });
  }
  for (auto& t : workers) t.join();
  return out;
}

std::map<std::uint64_t, std::string> running_fw_versions(const std::string& ca, int port,
                                                         const std::vector<FabricNode>& nodes) {
  auto channel = MadChannel::open(ca, port);
  if (!channel) return {};  // the listing stands without it
  return running_fw_versions(nodes, *channel);
}

std::map<std::uint64_t, std::string> running_fw_versions(const std::vector<FabricNode>& nodes,
                                                         const std::shared_ptr<MadChannel>& channel) {
  std::map<std::uint64_t, std::string> fw;
  for (const auto& n : take_inventory(nodes, channel, FlashQuery::Skip)) {
    if (n.vendor_access && n.fw_version) fw[n.node.guid] = n.fw_version->to_string();
  }
  return fw;
}

}  // namespace openflint
