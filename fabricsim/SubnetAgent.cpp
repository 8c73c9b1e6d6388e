// SubnetAgent: NodeInfo, NodeDescription, PortInfo, SwitchInfo and P_KeyTable of a topology node.
#include "fabricsim/SubnetAgent.h"

#include <algorithm>

namespace openflint {

namespace {

constexpr std::uint16_t kAttrNodeDescription = 0x0010;
constexpr std::uint16_t kAttrNodeInfo = 0x0011;
constexpr std::uint16_t kAttrSwitchInfo = 0x0012;
constexpr std::uint16_t kAttrPortInfo = 0x0015;
constexpr std::uint16_t kAttrPkeyTable = 0x0016;
constexpr std::uint16_t kStatusUnsupported = 0x0c;
constexpr std::uint16_t kStatusBadModifier = 0x1c;

void be(std::span<std::uint8_t> d, std::size_t at, std::uint64_t v, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) d[at + i] = static_cast<std::uint8_t>(v >> (8 * (bytes - 1 - i)));
}

}  // namespace

void fill_node_info(const SimTopology& topology, std::size_t node, unsigned port, std::span<std::uint8_t> d) {
  const auto& n = topology.nodes()[node];
  std::fill(d.begin(), d.end(), 0);
  d[0] = 1;                      // BaseVersion
  d[1] = 1;                      // ClassVersion
  d[2] = n.is_switch ? 2 : 1;    // NodeType: 1 channel adapter, 2 switch
  d[3] = static_cast<std::uint8_t>(n.ports);
  be(d, 4, n.guid, 8);           // SystemImageGUID
  be(d, 12, n.guid, 8);          // NodeGUID
  be(d, 20, n.port_guid(port), 8);
  be(d, 28, 8, 2);               // PartitionCap
  be(d, 30, n.device_id, 2);
  be(d, 32, 0xa0, 4);            // Revision
  d[36] = static_cast<std::uint8_t>(port);  // LocalPortNum: the port the SMP came in on
  be(d, 37, n.vendor_id, 3);
}

void fill_port_info(const SimTopology& topology, std::size_t node, unsigned port, unsigned local_port,
                    std::span<std::uint8_t> d) {
  const auto& n = topology.nodes()[node];
  std::fill(d.begin(), d.end(), 0);
  const bool up = port == 0 || n.peers[port].node != SimTopologyNode::kNone;
  be(d, 8, 0xfe80000000000000ULL, 8);  // GID prefix
  be(d, 16, n.lid(port), 2);
  be(d, 18, 1, 2);                     // MasterSMLID
  // CapabilityMask: IsSM on the SM's port (LID 1), IsTrapSupported, IsSLMappingSupported,
  // IsSystemImageGUIDSupported, IsVendorClassSupported, IsCapabilityMaskNotice.
  std::uint32_t caps = 0x00000008u | 0x00000020u | 0x00000800u | 0x00080000u | 0x00400000u;
  if (n.lid(port) == 1) caps |= 0x2;
  be(d, 20, caps, 4);
  d[28] = static_cast<std::uint8_t>(local_port);
  d[29] = 3;                            // LinkWidthEnabled 1X|4X
  d[30] = 3;                            // LinkWidthSupported
  d[31] = up ? 2 : 0;                   // LinkWidthActive 4X
  d[32] = static_cast<std::uint8_t>((7 << 4) | (up ? 4 : 1));  // LinkSpeedSupported | PortState Active/Down
  d[33] = static_cast<std::uint8_t>(((up ? 5 : 2) << 4) | 2);  // PhysState LinkUp/Polling | LinkDownDefault Polling
  d[35] = static_cast<std::uint8_t>(((up ? 4 : 0) << 4) | 7);  // LinkSpeedActive QDR | LinkSpeedEnabled
  d[36] = 5 << 4;                       // NeighborMTU 4096
  d[37] = 4 << 4;                       // VLCap VL0-7
  d[41] = 5;                            // MTUCap 4096
  d[42] = 0x1f;                         // HOQLife
  d[43] = static_cast<std::uint8_t>(4 << 4);  // OperationalVLs
  d[50] = n.is_switch && port != 0 ? 0 : 8;   // GUIDCap
  d[51] = 18;                           // SubnetTimeOut
  d[52] = 8;                            // RespTimeValue
}

std::uint16_t answer_subnet_attribute(const SimTopology& topology, std::size_t node, unsigned arrival_port,
                                      std::uint16_t attr, std::uint32_t attr_mod, std::span<std::uint8_t> d) {
  const auto& n = topology.nodes()[node];
  switch (attr) {
    case kAttrNodeInfo:
      fill_node_info(topology, node, arrival_port, d);
      return 0;
    case kAttrNodeDescription: {
      std::fill(d.begin(), d.end(), 0);
      const std::size_t len = std::min<std::size_t>(n.name.size(), d.size());
      std::copy_n(n.name.begin(), len, d.begin());
      return 0;
    }
    case kAttrSwitchInfo: {
      if (!n.is_switch) return kStatusUnsupported;
      std::fill(d.begin(), d.end(), 0);
      be(d, 0, 0xc000, 2);                // LinearFDBCap
      be(d, 4, 0x1000, 2);                // MulticastFDBCap
      be(d, 6, topology.max_lid(), 2);    // LinearFDBTop
      d[11] = 0x10 << 3;                  // LifeTimeValue
      be(d, 14, 8, 2);                    // PartitionEnforcementCap
      return 0;
    }
    case kAttrPortInfo: {
      unsigned port = attr_mod & 0xff;
      if (!n.is_switch && port == 0) port = arrival_port;
      if (port > n.ports || (!n.is_switch && port == 0)) return kStatusBadModifier;
      fill_port_info(topology, node, port, n.is_switch ? arrival_port : port, d);
      return 0;
    }
    case kAttrPkeyTable:
      std::fill(d.begin(), d.end(), 0);
      be(d, 0, 0xffff, 2);  // the default partition, full member
      return 0;
    default:
      return kStatusUnsupported;
  }
}

}  // namespace openflint
