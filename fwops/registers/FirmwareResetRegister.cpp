// FirmwareResetRegister: MFRL query/write over the ICMD mailbox of a VSEC function.
#include "fwops/registers/FirmwareResetRegister.h"

#include <memory>

#include "core/HexString.h"
#include "mtcr/pci/IcmdRegisterPort.h"

namespace openflint {
namespace {

// One MFRL access, the TLV status turned into an error.
Result<MfrlRegister> access_mfrl(RegisterPort& port, std::uint8_t method, const MfrlRegister& value) {
  OF_ASSIGN(const auto answer, port.access(MfrlRegister::kId, method, value.encode()));
  if (answer.status == AccessRegisterTlv::kStatusRegisterNotSupported)
    return make_error(ErrorCode::NotSupported, "the running firmware has no reset register (MFRL not supported)");
  if (answer.status == AccessRegisterTlv::kStatusBadParameter)
    return make_error(ErrorCode::InvalidArgument, "the firmware refused the reset request (MFRL: bad parameter)");
  if (answer.status != 0)
    return make_error(ErrorCode::Io, "MFRL access failed with register status " + hex_string(answer.status));
  return MfrlRegister::decode(answer.data);
}

// ICMD of the function at `pci_dir`, opened for one call.
Result<std::unique_ptr<IcmdRegisterPort>> icmd_port(const std::filesystem::path& pci_dir) {
  OF_ASSIGN_CTX(std::unique_ptr<IcmdRegisterPort> port, IcmdRegisterPort::open(pci_dir), "no reset register");
  return port;
}

}  // namespace

std::uint8_t mfrl_level_bit(int level) {
  switch (level) {
    case 0: return MfrlRegister::kLevel0LivePatch;
    case 3: return MfrlRegister::kLevel3PciReset;
    case 4: return MfrlRegister::kLevel4WarmReboot;
    default: return 0;
  }
}

Result<MfrlRegister> query_reset_register(const std::filesystem::path& pci_dir) {
  OF_ASSIGN(auto port, icmd_port(pci_dir));
  return query_reset_register(*port);
}

Result<MfrlRegister> arm_reset_register(const std::filesystem::path& pci_dir, std::uint8_t levels, std::uint8_t type,
                                        std::uint8_t pci_method) {
  OF_ASSIGN(auto port, icmd_port(pci_dir));
  return arm_reset_register(*port, levels, type, pci_method);
}

Result<MfrlRegister> query_reset_register(RegisterPort& port) {
  return access_mfrl(port, AccessRegisterTlv::kMethodQuery, MfrlRegister{});
}

Result<MfrlRegister> arm_reset_register(RegisterPort& port, std::uint8_t levels, std::uint8_t type, std::uint8_t pci_method) {
  MfrlRegister request;
  request.reset_trigger = levels;
  request.rst_type_sel = type;
  request.pci_reset_req_method = pci_method;
  OF_TRY(access_mfrl(port, AccessRegisterTlv::kMethodWrite, request));
  OF_ASSIGN(const auto now, query_reset_register(port));
  if (now.reset_state != MfrlRegister::kStateWaitingForTrigger)
    return make_error(ErrorCode::Io, "the firmware accepted the reset request but reports state '" +
                                         std::string(mfrl_state_name(now.reset_state)) + "', not armed");
  return now;
}

}  // namespace openflint
