// FirmwareRegisters: MGIR of a simulated device, and the register dispatch every transport shares.
#include "sim/FirmwareRegisters.h"

#include <algorithm>

namespace openflint::sim {

MgirRegister running_mgir(const SimDevice& device) {
  MgirRegister m;
  m.device_id = device.info().hw_id;
  const BootState& boot = device.boot_state();
  if (boot.recovery || !boot.running) return m;  // no firmware runs: fw_info stays zero
  if (boot.running->fw_version) {
    m.major = boot.running->fw_version->major;
    m.minor = boot.running->fw_version->minor;
    m.subminor = boot.running->fw_version->subminor;
  }
  m.psid = boot.running->psid;
  return m;
}

Result<void> answer_register(const SimDevice& device, AccessRegisterTlv& request) {
  if (!device.powered()) return make_error(ErrorCode::Io, "device is powered off");
  if (request.register_id != MgirRegister::kId) {
    request.status = kRegisterNotSupported;
    return {};
  }
  if (request.method != AccessRegisterTlv::kMethodQuery) {
    request.status = kMethodNotSupported;
    return {};
  }
  const auto full = running_mgir(device).encode();
  const std::size_t n = std::min(request.data.size(), full.size());
  std::copy(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n), request.data.begin());
  request.status = 0;
  return {};
}

}  // namespace openflint::sim
