// ToolsHcr: the device side of a ConnectX-3-era tools HCR — its semaphore, command register and mailbox in CR-space.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"
#include "devices/ToolsHcrLayout.h"

namespace openflint::sim {

class SimDevice;

// HCR command statuses (dword 6 [31:24]; the ConnectX PRM's command interface statuses, as
// mstflint mtcr_tools_cif.c translate_status reads them).
inline constexpr std::uint8_t kHcrStatusOk = 0x0;
inline constexpr std::uint8_t kHcrStatusBadOpcode = 0x2;     // ME_CMDIF_BAD_OP
// PRM "bad parameter" (mstflint names it ME_CMDIF_UNKN_TLV): a mailbox offset outside the
// mailbox, a port the device does not have, register TLVs that do not decode.
inline constexpr std::uint8_t kHcrStatusBadParameter = 0x3;
inline constexpr std::uint8_t kHcrStatusBadSystemState = 0x4;  // ME_CMDIF_BAD_SYS: no firmware answers

// The registers of devices/ToolsHcrLayout.h, as the device's hardware and firmware serve them
// (mstflint 4.21 mtcr_ul/mtcr_tools_cif.c is the tool side):
//  - semaphore: a hardware test-and-set — a read returning 0 takes it (the read after returns 1),
//    writing 0 frees it (any other value holds it);
//  - HCR (7 dwords, plain storage): writing dword 6 with go set runs the command at once, so go
//    always reads clear; status [31:24] then holds the answer, out_param (dwords 3/4) the
//    immediate result;
//  - mailbox: one buffer of layout.mailbox_bytes bytes, reachable as CR-space dwords (each the
//    big-endian value of 4 mailbox bytes) and through MAILBOX_WRITE/READ (input_modifier = dword
//    offset, even). The 8 bytes at that offset are two big-endian dwords: the first travels in
//    in_param_l / out_param_l (dword 1 / 4), the second in in_param_h / out_param_h (dword 0 / 3)
//    — mstflint's tools_cmdif_mbox_write/read put mailbox bytes [0..3] there, and its
//    QUERY_DEV_CAP reader takes the first dword as the low half of its u64.
// Opcodes: MAILBOX_WRITE/READ, REGISTER_ACCESS (the TLVs in the mailbox, answered by
// sim/FirmwareRegisters answer_register; input_modifier 1 "CR mailbox" or 0 "written by
// MAILBOX_WRITE" is the same buffer here), QUERY_DEV_CAP and QUERY_DEF_PARAMS
// (sim/ToolsHcrQueries.h); any other is kHcrStatusBadOpcode. Only running firmware answers:
// in flash recovery, or once the firmware hung, every command is kHcrStatusBadSystemState
// (mstconfig: "Driver might be down"); the semaphore, HCR and CR mailbox, being hardware,
// still work. A powered-off device never reaches here (SimDevice refuses the access).
// All of it is volatile: reset() (the device's reset or power cycle) zeroes the HCR and the
// mailbox and frees the semaphore.
class ToolsHcr {
 public:
  // Installs CR-space hooks on device.cr_space(); `device` owns this object (the hooks point
  // at it) and must outlive it.
  ToolsHcr(SimDevice& device, const ToolsHcrLayout& layout);
  ToolsHcr(const ToolsHcr&) = delete;
  ToolsHcr& operator=(const ToolsHcr&) = delete;

  void reset();
  [[nodiscard]] bool semaphore_held() const { return semaphore_held_; }
  [[nodiscard]] std::uint64_t commands() const { return commands_; }
  [[nodiscard]] std::span<const std::uint8_t> mailbox() const { return mailbox_; }

 private:
  static constexpr std::size_t kHcrDwords = 7;

  // The command as the HCR's dwords carry it, and its immediate answer.
  struct Command {
    std::uint16_t opcode = 0;
    std::uint8_t opcode_modifier = 0;
    std::uint32_t input_modifier = 0;
    std::uint32_t in_param_h = 0;
    std::uint32_t in_param_l = 0;
    std::uint32_t out_param_h = 0;
    std::uint32_t out_param_l = 0;
  };

  [[nodiscard]] Result<std::uint32_t> read_semaphore();
  void write_hcr(std::uint32_t address, std::uint32_t value);
  [[nodiscard]] std::uint32_t read_mailbox(std::uint32_t address) const;
  void write_mailbox(std::uint32_t address, std::uint32_t value);
  void run_command();
  [[nodiscard]] bool firmware_answers() const;
  [[nodiscard]] std::uint8_t execute(Command& command);
  [[nodiscard]] std::uint8_t mailbox_write(const Command& command);
  [[nodiscard]] std::uint8_t mailbox_read(Command& command) const;
  [[nodiscard]] std::uint8_t register_access();

  SimDevice* device_;
  ToolsHcrLayout layout_;
  std::array<std::uint32_t, kHcrDwords> hcr_{};
  std::vector<std::uint8_t> mailbox_;
  bool semaphore_held_ = false;
  std::uint64_t commands_ = 0;
};

}  // namespace openflint::sim
