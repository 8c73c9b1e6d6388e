// NodeDevice: a fabric node's device opened over the shared MAD channel, or why it cannot be.
#pragma once

#include <memory>

#include "core/Result.h"
#include "fabric/FabricNode.h"
#include "fwops/Device.h"
#include "mtcr/inband/MadChannel.h"

namespace openflint {

// The device of `node`, opened in-band by its LID on `channel`. The error's message is the note a
// fabric listing shows for the node: "no LID (run an SM)" (NotFound), or "no vendor access: WHY"
// (the opener's error code).
[[nodiscard]] Result<Device> open_node_device(const FabricNode& node, const std::shared_ptr<MadChannel>& channel);

}  // namespace openflint
