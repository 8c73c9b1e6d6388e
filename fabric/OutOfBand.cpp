// OutOfBand: matching fabric nodes to hosts' devices by node GUID, and opening a node by its path.
#include "fabric/OutOfBand.h"

#include <thread>

namespace openflint {
namespace {

const RemoteDeviceStatus* device_with_guid(const std::vector<RemoteHostStatus>& hosts, std::uint64_t guid) {
  for (const auto& h : hosts)
    for (const auto& d : h.devices)
      if (d.node_guid && *d.node_guid == guid && d.info) return &d;
  return nullptr;
}

NodeFirmware from_remote(const FabricNode& node, const RemoteDeviceStatus& d) {
  NodeFirmware out;
  out.node = node;
  out.remote = d.remote;
  out.device = std::string(d.info->name);
  out.hw_id = d.info->hw_id;
  out.note = d.error;
  if (d.flash) {
    out.psid = d.flash->psid;
    out.psid_source = "flash";
    // What runs cannot be asked over the bus protocol (no MGIR): the flash's version stands in.
    out.fw_version = d.flash->fw_version;
    out.flash_fw_version = d.flash->fw_version;
  }
  return out;
}

}  // namespace

std::vector<RemoteHostStatus> scan_hosts(const std::vector<RemoteHost>& hosts, const DeviceOpenOptions& options) {
  std::vector<RemoteHostStatus> out(hosts.size());
  std::vector<std::thread> workers;
  workers.reserve(hosts.size());
  for (std::size_t i = 0; i < hosts.size(); ++i)
    workers.emplace_back([&, i] { out[i] = list_remote_host(hosts[i], options); });
  for (auto& t : workers) t.join();
  return out;
}

std::vector<NodeFirmware> take_inventory(const std::vector<FabricNode>& nodes,
                                         const std::vector<RemoteHostStatus>& hosts,
                                         const std::shared_ptr<MadChannel>& channel) {
  std::vector<NodeFirmware> out(nodes.size());
  std::vector<FabricNode> in_band;
  std::vector<std::size_t> where;  // in_band[k] is nodes[where[k]]
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (const auto* d = device_with_guid(hosts, nodes[i].guid)) {
      out[i] = from_remote(nodes[i], *d);
      continue;
    }
    in_band.push_back(nodes[i]);
    where.push_back(i);
  }
  // The in-band nodes through NodeFirmware's bounded pool (kInventoryWorkers at a time): a
  // thread per node held every node's flash view at once (16 MiB each for a ConnectX-3: the
  // 64-node listing peaked at 1.1 GiB).
  auto inspected = take_inventory(in_band, channel);
  for (std::size_t k = 0; k < where.size(); ++k) out[where[k]] = std::move(inspected[k]);
  return out;
}

std::vector<NodeFirmware> served_inventory(const std::vector<RemoteHostStatus>& hosts) {
  std::vector<NodeFirmware> out;
  for (const auto& h : hosts)
    for (const auto& d : h.devices) {
      if (!d.info) continue;  // not opened: the hosts' report names why
      FabricNode node;
      node.type = d.info->kind == DeviceKind::Switch ? FabricNode::Type::Switch : FabricNode::Type::Hca;
      node.guid = d.node_guid.value_or(0);
      node.description = d.name;
      node.device_id = d.info->pci_device_id;
      out.push_back(from_remote(node, d));
    }
  return out;
}

Result<Device> open_node_device(const NodeFirmware& node, const std::shared_ptr<MadChannel>& channel) {
  if (node.remote) return open_host_device(node.remote->server, node.remote->device);
  DeviceOpenOptions options;
  options.channel = channel;
  return open_device(node.node.device_name(), options);
}

}  // namespace openflint
