// SimDeviceResponder: a saved SimDevice plus what a MadResponder needs to serve it on a fabric.
#pragma once

#include <filesystem>
#include <memory>

#include "core/Result.h"
#include "fabricsim/MadResponder.h"
#include "fabricsim/RegisterAccessBackend.h"
#include "fabricsim/SemaphoreLock.h"
#include "mtcr/registers/MgirRegister.h"
#include "sim/SimDevice.h"

namespace openflint {

// Loads the device from a directory written by SimDevice::save_state; CR-space MADs go to the
// device (hw id, flash gateway, semaphore); register access answers MGIR (running FW version
// and PSID from the boot state), everything else "unsupported"; a switch resets (boot ROM) on
// the vendor SwReset MAD. While the device is powered off every request gets an error status.
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
  // The MGIR register as the device answers it now (from its boot state).
  [[nodiscard]] MgirRegister mgir() const;
  // Switch resets served so far.
  [[nodiscard]] std::uint64_t resets() const { return resets_; }

 private:
  SimDeviceResponder(std::unique_ptr<sim::SimDevice> device, std::filesystem::path dir);

  [[nodiscard]] Result<void> access_register(std::span<std::uint8_t> payload);
  [[nodiscard]] Result<void> sw_reset();
  [[nodiscard]] Result<void> semaphore_lock(bool set, std::span<std::uint8_t> payload);

  std::unique_ptr<sim::SimDevice> device_;
  std::filesystem::path dir_;
  RegisterAccessBackend backend_;
  std::uint64_t resets_ = 0;
  SemaphoreLock semaphores_;  // SMP 0xff53: volatile, cleared by a reset
};

}  // namespace openflint
