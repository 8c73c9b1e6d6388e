// SubnetAgent: the standard SMP attributes of a simulated node (NodeInfo, NodeDescription, PortInfo, SwitchInfo, P_Key table).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "fabricsim/SimTopology.h"

namespace openflint {

// What a node's subnet management agent answers, in the SMP data area (64 bytes), as the
// InfiniBand spec lays the attributes out (Vol. 1, 14.2.5): every port Active/LinkUp at 4X QDR
// when cabled (Down/Polling when not), M_Key 0, one LID per port (switch: port 0), the master SM
// at LID 1. Sets are answered like gets (nothing is configurable). Returns the MAD status
// (0x0c: attribute not supported; 0x1c: bad AttrMod).
[[nodiscard]] std::uint16_t answer_subnet_attribute(const SimTopology& topology, std::size_t node, unsigned arrival_port,
                                                    std::uint16_t attr, std::uint32_t attr_mod,
                                                    std::span<std::uint8_t> data);

// The 64-byte NodeInfo / PortInfo blocks a client's port reports (ibsim's control requests).
void fill_node_info(const SimTopology& topology, std::size_t node, unsigned port, std::span<std::uint8_t> data);
void fill_port_info(const SimTopology& topology, std::size_t node, unsigned port, unsigned local_port,
                    std::span<std::uint8_t> data);

}  // namespace openflint
