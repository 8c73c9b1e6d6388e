// SimDeviceResponder: load/save of the served SimDevice and its MAD hooks.
#include "fabricsim/SimDeviceResponder.h"

#include <algorithm>

#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/MgirRegister.h"
#include "sim/FirmwareRegisters.h"

namespace openflint {

SimDeviceResponder::SimDeviceResponder(std::unique_ptr<sim::SimDevice> device, std::filesystem::path dir)
    : device_(std::move(device)), dir_(std::move(dir)), backend_(*device_) {}

Result<std::unique_ptr<SimDeviceResponder>> SimDeviceResponder::load(const std::filesystem::path& dir) {
  OF_ASSIGN_CTX(std::unique_ptr<sim::SimDevice> device, sim::SimDevice::load_state(dir), "serving simulated device");
  return wrap(std::move(device), dir);
}

std::unique_ptr<SimDeviceResponder> SimDeviceResponder::wrap(std::unique_ptr<sim::SimDevice> device,
                                                             std::filesystem::path dir) {
  return std::unique_ptr<SimDeviceResponder>(new SimDeviceResponder(std::move(device), std::move(dir)));
}

MgirRegister SimDeviceResponder::mgir() const { return sim::running_mgir(*device_); }

Result<void> SimDeviceResponder::access_register(std::span<std::uint8_t> payload) {
  OF_ASSIGN(AccessRegisterTlv request, AccessRegisterTlv::decode(payload));
  OF_TRY(sim::answer_register(*device_, request));
  // An unmodelled register is "unsupported attribute", which makes mstflint fall back to the
  // CR-space flash gateway.
  if (request.status == sim::kRegisterNotSupported || request.status == sim::kMethodNotSupported)
    return make_error(ErrorCode::NotSupported, "register not modelled");
  OF_ASSIGN(const auto encoded, request.encode(payload.size()));
  std::copy(encoded.begin(), encoded.end(), payload.begin());
  return {};
}

Result<void> SimDeviceResponder::sw_reset() {
  if (!device_->powered()) return make_error(ErrorCode::Io, "device is powered off");
  (void)device_->reset();
  semaphores_.clear();
  ++resets_;
  return {};
}

Result<void> SimDeviceResponder::semaphore_lock(bool set, std::span<std::uint8_t> payload) {
  if (!device_->powered()) return make_error(ErrorCode::Io, "device is powered off");
  const auto& boot = device_->boot_state();
  // The lock is the running firmware's: none in flash recovery, none from a hung firmware.
  if (boot.recovery) return make_error(ErrorCode::NotSupported, "no firmware runs");
  if (boot.firmware_hung) return make_error(ErrorCode::Io, "the firmware does not answer");
  return semaphores_.handle(set, payload, SemaphoreLock::Clock::now());
}

ResponderHooks SimDeviceResponder::hooks() {
  ResponderHooks hooks;
  hooks.register_access = [this](std::uint16_t, std::uint8_t, std::uint32_t, std::span<std::uint8_t> payload) {
    return access_register(payload);
  };
  // The in-band semaphore lock: adapters of the families whose firmware takes flash work through
  // registers (ConnectX-4 and later); mstflint uses it for parts with VSEC semaphores, which the
  // switches of these generations (Spectrum-1..3) do not have (mft-internals §4.5).
  if (device_->info().kind == DeviceKind::Hca && device_->info().firmware_flash.component_update)
    hooks.semaphore_lock = [this](bool set, std::span<std::uint8_t> payload) { return semaphore_lock(set, payload); };
  // ExtPortAccess reaches the device's I2C master, on parts that have one (InfiniScale EEPROMs).
  hooks.i2c_bus = [this] { return device_->i2c(); };
  // Switches reset on the vendor SwReset MAD: the boot ROM runs over what the flash holds now.
  if (device_->info().kind == DeviceKind::Switch) hooks.sw_reset = [this](std::uint32_t) { return sw_reset(); };
  return hooks;
}

Result<void> SimDeviceResponder::save() const {
  if (dir_.empty()) return make_error(ErrorCode::InvalidArgument, "simulated device: no state directory to save to");
  return device_->save_state(dir_);
}

}  // namespace openflint
