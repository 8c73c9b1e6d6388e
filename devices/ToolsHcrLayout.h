// ToolsHcrLayout: where a ConnectX-3-era device's tools command interface (the tools HCR) sits in CR-space.
#pragma once

#include <cstdint>

namespace openflint {

// The tools HCR (docs/nvconfig.md §4): seven dwords — in_param (2), input_modifier, out_param (2),
// token [31:16] of dword 5, and dword 6 with opcode [11:0], opcode_modifier [15:12], go [23] and
// status [31:24]. A tool takes the hardware semaphore (a read returning 0 takes it, writing 0
// frees it), waits for go to clear, writes the command with go set and polls go. The mailbox is
// also mapped into CR-space: register accesses (opcode 0x3b with input_modifier 1) put their
// TLVs there.
struct ToolsHcrLayout {
  std::uint32_t hcr = 0;        // CR address of the seven-dword command register
  std::uint32_t mailbox = 0;    // CR address of the mailbox
  std::uint32_t mailbox_bytes = 0;
  std::uint32_t semaphore = 0;  // the hardware semaphore guarding the HCR
};

// Opcodes (mstflint mtcr_tools_cif.c, cmdif/tools_cif.c).
inline constexpr std::uint16_t kToolsHcrQueryDevCap = 0x03;
inline constexpr std::uint16_t kToolsHcrRegisterAccess = 0x3b;
inline constexpr std::uint16_t kToolsHcrMailboxWrite = 0x70;
inline constexpr std::uint16_t kToolsHcrMailboxRead = 0x71;
inline constexpr std::uint16_t kToolsHcrQueryDefParams = 0x73;

// ConnectX-3 and ConnectX-3 Pro (firmware 2.31.5000 and later).
inline constexpr ToolsHcrLayout kConnectX3ToolsHcr{.hcr = 0x80780, .mailbox = 0xe0000, .mailbox_bytes = 288,
                                                    .semaphore = 0xf03bc};

}  // namespace openflint
