// SimDeviceResponder: a saved SimDevice plus what a MadResponder needs to serve it on a fabric.
#pragma once

#include <filesystem>
#include <memory>

#include "core/Result.h"
#include "inband/MadResponder.h"
#include "inband/RegisterAccessBackend.h"
#include "sim/SimDevice.h"

namespace openflint {

// Loads the device from a directory written by SimDevice::save_state; CR-space MADs go to the
// device (hw id, flash gateway, semaphore), register-access MADs to its access-register model.
// save() writes the state back to the same directory.
class SimDeviceResponder {
 public:
  [[nodiscard]] static Result<std::unique_ptr<SimDeviceResponder>> load(const std::filesystem::path& dir);
  // Serves an already-built device (not saved unless save() is called).
  [[nodiscard]] static std::unique_ptr<SimDeviceResponder> wrap(std::unique_ptr<sim::SimDevice> device,
                                                                std::filesystem::path dir);

  SimDeviceResponder(const SimDeviceResponder&) = delete;
  SimDeviceResponder& operator=(const SimDeviceResponder&) = delete;

  [[nodiscard]] CrSpaceBackend& backend() { return backend_; }
  [[nodiscard]] ResponderHooks hooks();
  [[nodiscard]] sim::SimDevice& device() { return *device_; }
  [[nodiscard]] Result<void> save() const;

 private:
  SimDeviceResponder(std::unique_ptr<sim::SimDevice> device, std::filesystem::path dir);

  std::unique_ptr<sim::SimDevice> device_;
  std::filesystem::path dir_;
  RegisterAccessBackend backend_;
};

}  // namespace openflint
