// DeviceTransport: what the transports share unless they say otherwise.
#include "fwops/DeviceTransport.h"

#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/registers/FirmwareResetRegister.h"

namespace openflint {

Result<std::vector<std::string>> DeviceTransport::reset_as_planned(Device& device, const ResetPlan& /*plan*/,
                                                                   const ResetOptions& /*options*/) {
  OF_TRY(device.reset());
  return std::vector<std::string>{};
}

Result<MfrlRegister> DeviceTransport::query_reset_register(Device& device) {
  OF_ASSIGN(RegisterPort* port, device.register_port());
  return openflint::query_reset_register(*port);
}

Result<MfrlRegister> DeviceTransport::arm_reset_register(Device& device, int level) {
  OF_ASSIGN(RegisterPort* port, device.register_port());
  return openflint::arm_reset_register(*port, mfrl_level_bit(level), 0, 1);
}

Result<std::vector<std::uint8_t>> DeviceTransport::vpd(Device& device) {
  return make_error(ErrorCode::NotSupported, device.name() + ": VPD is read over PCI (give a PCI device)");
}

Result<void> DeviceTransport::power_on(Device& device) {
  return make_error(ErrorCode::NotSupported, device.name() + ": power control exists for simulated devices only");
}

Result<std::vector<std::uint8_t>> DeviceTransport::firmware_command(Device& device, std::uint16_t /*opcode*/,
                                                                   std::span<const std::uint8_t> /*in*/,
                                                                   std::size_t /*out_bytes*/) {
  return make_error(ErrorCode::NotSupported, device.name() + ": firmware commands (ICMD) are not reachable over " +
                                                 std::string(reached_over()));
}

const std::filesystem::path& DeviceTransport::pci_dir() const {
  static const std::filesystem::path none;
  return none;
}

}  // namespace openflint
