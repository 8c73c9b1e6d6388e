// SimNodeGuid: the node GUID a simulated device's firmware reports (NodeInfo): what its running copy records.
#pragma once

#include <cstdint>
#include <optional>

#include "image/NodeGuid.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

// As real firmware takes it from its flash (image/NodeGuid.h); nullopt in recovery mode or when
// the running copy records none.
[[nodiscard]] inline std::optional<std::uint64_t> reported_node_guid(const SimDevice& device) {
  const auto& running = device.boot_state().running;
  return running ? node_guid(*running) : std::nullopt;
}

}  // namespace openflint::sim
