// NodeFirmware: per-node in-band inspection (hw id, MGIR, flash image as a fallback).
#include "fabric/NodeFirmware.h"

#include <thread>

#include "flash/FlashDriver.h"
#include "fabric/NodeDevice.h"
#include "fwops/Device.h"
#include "fwops/DeviceFlash.h"
#include "fwops/FlashImageReader.h"
#include "image/FirmwareImage.h"

namespace openflint {
namespace {

void from_flash(Device& device, NodeFirmware& out) {
  auto reader = open_device_flash_reader(device);  // reads only: through the firmware where it owns the flash
  if (!reader) {
    out.note = "flash not readable: " + reader.error().message();
    return;
  }
  auto sparse = read_current_image(device.access(), device.info(), **reader, CopyScope::Query);
  if (!sparse) {
    out.note = "flash image unreadable: " + sparse.error().message();
    return;
  }
  if (!sparse->query) {
    out.note = "no valid image on flash";
    return;
  }
  out.flash_fw_version = sparse->query->fw_version;
  if (!out.psid.empty()) return;  // the running firmware said which board this is
  out.psid = sparse->query->psid;
  out.psid_source = "flash";
  out.fw_version = sparse->query->fw_version;
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
  std::vector<std::thread> workers;
  workers.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    workers.emplace_back([&, i] { out[i] = inspect_node(nodes[i], channel, flash); });
  }
  for (auto& t : workers) t.join();
  return out;
}

}  // namespace openflint
