// TopologyDevices: a simulated device on every node of a topology, flash copy-on-write over one base image per model.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/SimDeviceResponder.h"
#include "fabricsim/SimTopology.h"

namespace openflint {

struct TopologyDeviceOptions {
  // Image per simulator model (e.g. "connectx3" → IMG); models without one use
  // sample_dir/MODEL-old.bin when it exists, else their flash stays erased (flash recovery).
  std::map<std::string, std::filesystem::path> images;
  std::filesystem::path sample_dir;
  std::filesystem::path base_dir;  // the base flash files (one per model) are written here
};

// Each node's model is the catalog device of its NodeInfo device id (what ibtopogen wrote for its
// system type). A model's base flash file (its image at offset 0, the rest erased) is written
// once; each device maps it privately (sim/FlashCells.h), gets its own GUIDs (the node's GUID
// from the topology, written as `flint sg` would: node, port 1, port 2, ...) and boots. So a
// device costs the flash pages its identity and later burns change, not its whole flash.
class TopologyDevices {
 public:
  [[nodiscard]] static Result<std::unique_ptr<TopologyDevices>> build(const SimTopology& topology,
                                                                      const TopologyDeviceOptions& options);

  // One slot per topology node (null: no device there), for FabricServer.
  [[nodiscard]] std::vector<MadRequestHandler*> handlers() const;
  [[nodiscard]] SimDeviceResponder* device(std::size_t node) const { return devices_[node].get(); }
  [[nodiscard]] std::size_t count() const;
  // Model → number of devices, and one line per thing that did not go as planned (a device id
  // with no simulator model, an identity that could not be written).
  [[nodiscard]] const std::map<std::string, std::size_t>& models() const { return models_; }
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::vector<std::unique_ptr<SimDeviceResponder>> devices_;
  std::vector<std::unique_ptr<MadRequestHandler>> handlers_;
  std::map<std::string, std::size_t> models_;
  std::vector<std::string> warnings_;
};

}  // namespace openflint
