// NodeDevice: opening a fabric node's device in-band, with the notes every fabric tool shows.
#include "fabric/NodeDevice.h"

namespace openflint {

Result<Device> open_node_device(const FabricNode& node, const std::shared_ptr<MadChannel>& channel) {
  if (node.lid == 0) return make_error(ErrorCode::NotFound, "no LID (run an SM)");
  DeviceOpenOptions options;
  options.channel = channel;
  auto device = open_device(node.device_name(), options);
  if (!device) return make_error(device.error().code(), "no vendor access: " + device.error().message());
  return device;
}

}  // namespace openflint
