// FirmwareCommands: the simulated firmware's ICMD opcodes.
#include "sim/FirmwareCommands.h"

#include <algorithm>

#include "devices/PciConfigGateway.h"
#include "sim/FirmwareRegisters.h"
#include "sim/FirmwareTracer.h"
#include "sim/SimDevice.h"

namespace openflint::sim {
namespace {

constexpr std::uint16_t kIcmdQueryCap = 0x8400;            // ICMD QUERY_CAP (mstflint GET_ICMD_QUERY_CAP)
constexpr std::uint32_t kQueryCapAllRegisters = 1u << 29;  // allow_icmd_access_reg_on_all_registers
constexpr std::uint16_t kIcmdGetFwInfo = 0x8007;           // mstflint GET_FW_INFO (mstfwtrace's livefish check)
constexpr std::uint16_t kIcmdSetItrace = 0xf003;           // mstflint SET_ITRACE (fw-trace-and-fwctl.md A4)
// GET_FW_INFO (mstflint tools_layouts icmd_layouts connectib_icmd_get_fw_info): FW_VERSION at 0
// (major bytes 0-1, minor 4-5, subminor 6-7, build time and date 8-15, left zero here),
// hash_signature bytes 18-19 (zero), psid: 16 characters from byte 20, each dword's four
// characters stored last byte first (a big-endian array of 8-bit elements: psid[0] is byte 23).
constexpr std::size_t kFwInfoBytes = 36;
constexpr std::size_t kFwInfoPsidAt = 20;

std::uint32_t mailbox_dword(std::span<const std::uint8_t> mailbox, std::size_t index) {
  const std::size_t at = 4 * index;
  if (at + 4 > mailbox.size()) return 0;
  return std::uint32_t{mailbox[at]} << 24 | std::uint32_t{mailbox[at + 1]} << 16 | std::uint32_t{mailbox[at + 2]} << 8 |
         mailbox[at + 3];
}

std::uint8_t get_fw_info(SimDevice& device, std::span<std::uint8_t> mailbox) {
  const MgirRegister running = running_mgir(device);
  if (!running.has_firmware()) return kIcmdStatusOperational;  // livefish: nothing answers
  if (mailbox.size() < kFwInfoBytes) return kIcmdStatusBadCommand;
  std::fill(mailbox.begin(), mailbox.end(), 0);
  const auto put16 = [&](std::size_t at, std::uint16_t v) {
    mailbox[at] = static_cast<std::uint8_t>(v >> 8);
    mailbox[at + 1] = static_cast<std::uint8_t>(v);
  };
  put16(0, running.major);
  put16(4, running.minor);
  put16(6, running.subminor);
  for (std::size_t i = 0; i < 16 && i < running.psid.size(); ++i)
    mailbox[kFwInfoPsidAt + i / 4 * 4 + 3 - i % 4] = static_cast<std::uint8_t>(running.psid[i]);
  return kIcmdStatusOk;
}

std::uint8_t set_itrace(SimDevice& device, std::span<const std::uint8_t> mailbox) {
  FirmwareTracer* tracer = device.tracer();
  if (tracer == nullptr) return kIcmdStatusBadOpcode;  // a family without a tracer has no such command
  if (!running_mgir(device).has_firmware()) return kIcmdStatusOperational;
  const std::uint32_t control = mailbox_dword(mailbox, 1);
  auto set = tracer->set_itrace(mailbox_dword(mailbox, 0), static_cast<std::uint8_t>(control & 0xff),
                                static_cast<std::uint16_t>(control >> 16));
  tracer->end_burst();
  return set ? kIcmdStatusOk : kIcmdStatusBadCommand;
}

}  // namespace

std::uint8_t run_firmware_command(SimDevice& device, std::uint16_t opcode, std::span<std::uint8_t> mailbox) {
  const auto bus = device.hold_bus();
  if (opcode == kIcmdGetFwInfo) return get_fw_info(device, mailbox);
  if (opcode == kIcmdSetItrace) return set_itrace(device, mailbox);
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
