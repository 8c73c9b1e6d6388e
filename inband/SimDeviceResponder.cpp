// SimDeviceResponder: load/save of the served SimDevice and its MAD hooks.
#include "inband/SimDeviceResponder.h"

namespace openflint {

SimDeviceResponder::SimDeviceResponder(std::unique_ptr<sim::SimDevice> device, std::filesystem::path dir)
    : device_(std::move(device)), dir_(std::move(dir)), backend_(*device_) {}

Result<std::unique_ptr<SimDeviceResponder>> SimDeviceResponder::load(const std::filesystem::path& dir) {
  auto device = sim::SimDevice::load_state(dir);
  if (!device) return make_error(std::move(device).error().with_context("serving simulated device"));
  return wrap(std::move(*device), dir);
}

std::unique_ptr<SimDeviceResponder> SimDeviceResponder::wrap(std::unique_ptr<sim::SimDevice> device,
                                                             std::filesystem::path dir) {
  return std::unique_ptr<SimDeviceResponder>(new SimDeviceResponder(std::move(device), std::move(dir)));
}

ResponderHooks SimDeviceResponder::hooks() {
  ResponderHooks hooks;
  return hooks;
}

Result<void> SimDeviceResponder::save() const {
  if (dir_.empty()) return make_error(ErrorCode::InvalidArgument, "simulated device: no state directory to save to");
  return device_->save_state(dir_);
}

}  // namespace openflint
