// FabricDiscovery: libibnetdisc sweep turned into FabricNode records (switches first, then by LID).
#include "fabric/FabricDiscovery.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#include <algorithm>
#include <memory>

namespace openflint {
namespace {

struct FabricDeleter {
  void operator()(ibnd_fabric_t* f) const { ibnd_destroy_fabric(f); }
};

std::uint16_t node_lid(const ibnd_node_t& n) {
  if (n.type == IB_NODE_SWITCH) return n.smalid;
  for (int i = 1; i <= n.numports; ++i) {
    if (n.ports[i] != nullptr && n.ports[i]->base_lid != 0) return n.ports[i]->base_lid;
  }
  return 0;
}

FabricNode to_node(const ibnd_node_t& n, std::uint64_t local_guid) {
  FabricNode node;
  node.type = n.type == IB_NODE_SWITCH ? FabricNode::Type::Switch
                                       : (n.type == IB_NODE_CA ? FabricNode::Type::Hca : FabricNode::Type::Router);
  node.guid = n.guid;
  node.lid = node_lid(n);
  node.description = n.nodedesc;
  auto* info = const_cast<std::uint8_t*>(n.info);  // libibmad's getter takes a non-const buffer
  node.vendor_id = static_cast<std::uint16_t>(mad_get_field(info, 0, IB_NODE_VENDORID_F));
  node.device_id = static_cast<std::uint16_t>(mad_get_field(info, 0, IB_NODE_DEVID_F));
  node.local = n.guid == local_guid;
  return node;
}

}  // namespace

Result<std::vector<FabricNode>> discover_fabric(const std::string& ca, int port) {
  ibnd_config_t config{};
  config.timeout_ms = 500;
  config.retries = 2;
  std::string ca_name = ca;
  std::unique_ptr<ibnd_fabric_t, FabricDeleter> fabric(
      ibnd_discover_fabric(ca_name.empty() ? nullptr : ca_name.data(), port, nullptr, &config));
  if (!fabric) return make_error(ErrorCode::Io, "fabric discovery failed (no active port or no answer to smps)");
  const std::uint64_t local_guid = fabric->from_node != nullptr ? fabric->from_node->guid : 0;
  std::vector<FabricNode> nodes;
  for (ibnd_node_t* n = fabric->nodes; n != nullptr; n = n->next) nodes.push_back(to_node(*n, local_guid));
  std::sort(nodes.begin(), nodes.end(), [](const FabricNode& a, const FabricNode& b) {
    if ((a.type == FabricNode::Type::Switch) != (b.type == FabricNode::Type::Switch))
      return a.type == FabricNode::Type::Switch;
    return a.lid < b.lid;
  });
  return nodes;
}

}  // namespace openflint
