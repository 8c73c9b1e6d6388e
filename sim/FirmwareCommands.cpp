// FirmwareCommands: the simulated firmware's ICMD opcodes.
#include "sim/FirmwareCommands.h"

#include <algorithm>

#include "devices/PciConfigGateway.h"
#include "sim/FirmwareRegisters.h"

namespace openflint::sim {
namespace {

constexpr std::uint16_t kIcmdQueryCap = 0x8400;            // ICMD QUERY_CAP (mstflint GET_ICMD_QUERY_CAP)
constexpr std::uint32_t kQueryCapAllRegisters = 1u << 29;  // allow_icmd_access_reg_on_all_registers

}  // namespace

std::uint8_t run_firmware_command(SimDevice& device, std::uint16_t opcode, std::span<std::uint8_t> mailbox) {
  if (opcode == kIcmdQueryCap) {
    if (!running_mgir(device).has_firmware()) return kIcmdStatusOperational;
    std::fill(mailbox.begin(), mailbox.end(), 0);
    if (mailbox.size() >= 4) mailbox[0] = kQueryCapAllRegisters >> 24;  // dword 0 big-endian
    return kIcmdStatusOk;
  }
  if (opcode != kIcmdAccessRegister) return kIcmdStatusBadOpcode;
  auto request = AccessRegisterTlv::decode(mailbox);
  if (!request) return kIcmdStatusBadCommand;
  if (!answer_register(device, *request)) return kIcmdStatusOperational;
  auto encoded = request->encode(mailbox.size());
  if (!encoded) return kIcmdStatusBadCommand;
  std::copy(encoded->begin(), encoded->end(), mailbox.begin());
  return kIcmdStatusOk;
}

}  // namespace openflint::sim
