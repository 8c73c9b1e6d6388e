// FirmwareCommands: the ICMD commands a simulated device's running firmware runs (opcode + mailbox), whichever path sends them.
#pragma once

#include <cstdint>
#include <span>

namespace openflint::sim {

class SimDevice;

// ICMD statuses (the CTRL register's [15:8]) the simulated firmware answers with.
inline constexpr std::uint8_t kIcmdStatusOk = 0;
inline constexpr std::uint8_t kIcmdStatusBadOpcode = 1;
inline constexpr std::uint8_t kIcmdStatusBadCommand = 2;
inline constexpr std::uint8_t kIcmdStatusOperational = 3;

// Runs ICMD `opcode` with `mailbox` (big-endian dwords) rewritten in place, as the firmware
// would: QUERY_CAP (0x8400: any access register may be sent, mstreg needs it), ACCESS_REGISTER
// (sim/FirmwareRegisters), GET_FW_INFO (0x8007: the running FW version and PSID; operational
// error when no firmware runs, which mstfwtrace takes for livefish) and, on families with a
// firmware tracer, SET_ITRACE (0xF003: dword 0 unit_mask, dword 1 [7:0] log_level, [31:16]
// log_delay; a level past 3 is kIcmdStatusBadCommand; other families: kIcmdStatusBadOpcode). An unknown opcode: kIcmdStatusBadOpcode; a malformed TLV:
// kIcmdStatusBadCommand; no firmware answers (powered off, not running, hung):
// kIcmdStatusOperational. The VSEC's mailbox (sim/PciConfigSpace) and a simulated device opened
// directly (fwops SimTransport) both come here.
[[nodiscard]] std::uint8_t run_firmware_command(SimDevice& device, std::uint16_t opcode, std::span<std::uint8_t> mailbox);

}  // namespace openflint::sim
