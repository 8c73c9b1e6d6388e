// NodeUpdater: one node's share of an update (the decision, the plan, the burn with its retries), for FabricUpdater.
#pragma once

#include <cstddef>
#include <memory>

#include "fabric/FabricUpdater.h"
#include "fabric/ImageSet.h"
#include "fabric/NodeFirmware.h"
#include "mtcr/inband/MadChannel.h"

namespace openflint {

// Fills `out` with what needs no burn (NoAccess, NoImage, UpToDate, and a dry run's WouldUpdate
// with its plan) and returns nullptr; else returns the image the node is to be burned with
// (out.image, out.image_version and out.journaled set).
[[nodiscard]] const FirmwareFile* decide_node_update(const NodeFirmware& node, const ImageSet& images,
                                                     const std::shared_ptr<MadChannel>& channel,
                                                     const FabricUpdateOptions& options, std::size_t index,
                                                     NodeUpdate& out);

// Burns `file` into the node (retries with backoff, the node's deadline, the journal's records,
// the reset and the check of what runs after), filling `out` (Updated or Failed).
void burn_node_update(const NodeFirmware& node, const FirmwareFile& file, const std::shared_ptr<MadChannel>& channel,
                      const FabricUpdateOptions& options, std::size_t index, NodeUpdate& out);

// Records `state` for the node in the journal (if any) and tells options.on_event. A journal
// that cannot be written is noted in out.message (the update goes on: the flash stays the truth).
void node_update_event(const FabricUpdateOptions& options, std::size_t index, NodeUpdate& out, JournalState state,
                       const std::string& message = {}, int attempt = 1);

}  // namespace openflint
