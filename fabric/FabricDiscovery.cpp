// FabricDiscovery: libibnetdisc sweep turned into FabricNode records (switches first, then by LID).
#include "fabric/FabricDiscovery.h"

#include <algorithm>
#include <memory>

#include "core/StderrSilenced.h"
#include "fabric/IbDiagLibrary.h"

namespace openflint {
namespace {

struct FabricDeleter {
  const IbDiagFunctions* diag = nullptr;
  void operator()(ibnd_fabric_t* f) const { diag->destroy_fabric(f); }
};

std::uint16_t node_lid(const ibnd_node_t& n) {
  if (n.type == IB_NODE_SWITCH) return n.smalid;
  for (int i = 1; i <= n.numports; ++i) {
    if (n.ports[i] != nullptr && n.ports[i]->base_lid != 0) return n.ports[i]->base_lid;
  }
  return 0;
}

FabricNode to_node(const IbDiagFunctions& diag, const ibnd_node_t& n, std::uint64_t local_guid) {
  FabricNode node;
  node.type = n.type == IB_NODE_SWITCH ? FabricNode::Type::Switch
                                       : (n.type == IB_NODE_CA ? FabricNode::Type::Hca : FabricNode::Type::Router);
  node.guid = n.guid;
  node.lid = node_lid(n);
  node.description = n.nodedesc;
  auto* info = const_cast<std::uint8_t*>(n.info);  // libibmad's getter takes a non-const buffer
  node.vendor_id = static_cast<std::uint16_t>(diag.get_field(info, 0, IB_NODE_VENDORID_F));
  node.device_id = static_cast<std::uint16_t>(diag.get_field(info, 0, IB_NODE_DEVID_F));
  node.local = n.guid == local_guid;
  return node;
}

// PortInfo fields as IBA 14.2.5.6 encodes them.
std::string width_text(unsigned w) {
  switch (w) {
    case 1: return "1x";
    case 2: return "4x";
    case 4: return "8x";
    case 8: return "12x";
    case 16: return "2x";
    default: return "";
  }
}

std::string speed_text(unsigned speed, unsigned ext) {
  switch (ext) {  // LinkSpeedExtActive, when the port has extended speeds
    case 1: return "FDR";
    case 2: return "EDR";
    case 4: return "HDR";
    case 8: return "NDR";
    default: break;
  }
  switch (speed) {
    case 1: return "SDR";
    case 2: return "DDR";
    case 4: return "QDR";
    case 8: return "FDR10";
    default: return "";
  }
}

std::string state_text(unsigned state) {
  switch (state) {
    case 1: return "Down";
    case 2: return "Init";
    case 3: return "Armed";
    case 4: return "Active";
    default: return "";
  }
}

FabricLink to_link(const IbDiagFunctions& diag, const ibnd_port_t& a, const ibnd_port_t& b) {
  FabricLink link;
  const bool swap = b.node->guid < a.node->guid || (b.node->guid == a.node->guid && b.portnum < a.portnum);
  const ibnd_port_t& first = swap ? b : a;
  const ibnd_port_t& second = swap ? a : b;
  link.guid_a = first.node->guid;
  link.port_a = first.portnum;
  link.guid_b = second.node->guid;
  link.port_b = second.portnum;
  auto* info = const_cast<std::uint8_t*>(a.info);
  link.width = width_text(diag.get_field(info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F));
  link.speed = speed_text(diag.get_field(info, 0, IB_PORT_LINK_SPEED_ACTIVE_F),
                          diag.get_field(info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F));
  link.state = state_text(diag.get_field(info, 0, IB_PORT_STATE_F));
  return link;
}

using FabricPtr = std::unique_ptr<ibnd_fabric_t, FabricDeleter>;

Result<FabricPtr> sweep(const IbDiagFunctions& diag, const std::string& ca, int port) {
  ibnd_config_t config{};
  config.timeout_ms = 500;
  config.retries = 2;
  std::string ca_name = ca;
  FabricPtr fabric(nullptr, FabricDeleter{.diag = &diag});
  {
    const StderrSilenced quiet;  // libibnetdisc prints "can't open MAD port" itself; our error follows
    fabric.reset(diag.discover_fabric(ca_name.empty() ? nullptr : ca_name.data(), port, nullptr, &config));
  }
  if (!fabric) return make_error(ErrorCode::Io, "fabric discovery failed (no active port or no answer to smps)");
  return fabric;
}

std::vector<FabricNode> nodes_of(const IbDiagFunctions& diag, const ibnd_fabric_t& fabric) {
  const std::uint64_t local_guid = fabric.from_node != nullptr ? fabric.from_node->guid : 0;
  std::vector<FabricNode> nodes;
  for (ibnd_node_t* n = fabric.nodes; n != nullptr; n = n->next) nodes.push_back(to_node(diag, *n, local_guid));
  std::sort(nodes.begin(), nodes.end(), [](const FabricNode& a, const FabricNode& b) {
    if ((a.type == FabricNode::Type::Switch) != (b.type == FabricNode::Type::Switch))
      return a.type == FabricNode::Type::Switch;
    return a.lid < b.lid;
  });
  return nodes;
}

}  // namespace

Result<std::vector<FabricNode>> discover_fabric(const std::string& ca, int port) {
  OF_ASSIGN(const IbDiagFunctions* diag, IbDiagLibrary::functions());
  OF_ASSIGN(auto fabric, sweep(*diag, ca, port));
  return nodes_of(*diag, *fabric);
}

Result<FabricSweep> discover_fabric_links(const std::string& ca, int port) {
  OF_ASSIGN(const IbDiagFunctions* diag, IbDiagLibrary::functions());
  OF_ASSIGN(auto fabric, sweep(*diag, ca, port));
  FabricSweep result{nodes_of(*diag, *fabric), {}};
  for (ibnd_node_t* n = fabric->nodes; n != nullptr; n = n->next) {
    for (int i = 1; i <= n->numports; ++i) {
      const ibnd_port_t* p = n->ports[i];
      if (p == nullptr || p->remoteport == nullptr || p->remoteport->node == nullptr) continue;
      const ibnd_port_t& r = *p->remoteport;
      // Each cable once: from the end with the smaller (GUID, port).
      if (r.node->guid < n->guid || (r.node->guid == n->guid && r.portnum < p->portnum)) continue;
      result.links.push_back(to_link(*diag, *p, r));
    }
  }
  return result;
}

}  // namespace openflint
