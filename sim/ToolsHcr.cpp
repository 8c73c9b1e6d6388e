// ToolsHcr: the tools HCR's hardware semaphore, synchronous command run, mailbox and mailbox/register-access opcodes.
#include "sim/ToolsHcr.h"

#include <algorithm>

#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/NvConfigRegisters.h"
#include "sim/FirmwareRegisters.h"
#include "sim/SimDevice.h"
#include "sim/ToolsHcrQueries.h"

namespace openflint::sim {
namespace {

// HCR dwords (mstflint mtcr_tools_cif.c tools_cmdif_pack/unpack).
constexpr std::size_t kInParamH = 0;
constexpr std::size_t kInParamL = 1;
constexpr std::size_t kInputModifier = 2;
constexpr std::size_t kOutParamH = 3;
constexpr std::size_t kOutParamL = 4;
constexpr std::size_t kCommandDword = 6;
// The command dword: opcode [11:0], opcode_modifier [15:12], go [23], status [31:24].
constexpr std::uint32_t kOpcodeMask = 0xfff;
constexpr unsigned kOpcodeModifierShift = 12;
constexpr std::uint32_t kOpcodeModifierMask = 0xf;
constexpr std::uint32_t kGoBit = 1u << 23;
constexpr unsigned kStatusShift = 24;
constexpr std::uint32_t kStatusMask = 0xffu << kStatusShift;

constexpr std::uint32_t kSemaphoreHeld = 1;  // what a read of the held semaphore returns
constexpr std::uint32_t kMailboxQuadDwords = 2;  // MAILBOX_WRITE/READ move 8 bytes at an even dword offset

// The offset must be even and the 8 bytes inside the mailbox (mstflint checks evenness too).
bool quad_in_mailbox(std::uint32_t dword_offset, std::size_t mailbox_bytes) {
  return dword_offset % kMailboxQuadDwords == 0 &&
         (std::uint64_t{dword_offset} + kMailboxQuadDwords) * 4 <= mailbox_bytes;
}

}  // namespace

ToolsHcr::ToolsHcr(SimDevice& device, const ToolsHcrLayout& layout)
    : device_(&device), layout_(layout), mailbox_(layout.mailbox_bytes, 0) {
  CrSpace& cr = device.cr_space();
  cr.add_hook(
      layout_.semaphore, layout_.semaphore, [this](std::uint32_t) { return read_semaphore(); },
      [this](std::uint32_t, std::uint32_t value) -> Result<void> {
        semaphore_held_ = value != 0;  // writing 0 frees it
        return {};
      });
  cr.add_hook(
      layout_.hcr, layout_.hcr + 4 * (kHcrDwords - 1),
      [this](std::uint32_t address) -> Result<std::uint32_t> { return hcr_[(address - layout_.hcr) / 4]; },
      [this](std::uint32_t address, std::uint32_t value) -> Result<void> {
        write_hcr(address, value);
        return {};
      });
  if (layout_.mailbox_bytes >= 4) {
    cr.add_hook(
        layout_.mailbox, layout_.mailbox + layout_.mailbox_bytes - 4,
        [this](std::uint32_t address) -> Result<std::uint32_t> { return read_mailbox(address); },
        [this](std::uint32_t address, std::uint32_t value) -> Result<void> {
          write_mailbox(address, value);
          return {};
        });
  }
}

void ToolsHcr::reset() {
  hcr_.fill(0);
  std::fill(mailbox_.begin(), mailbox_.end(), 0);
  semaphore_held_ = false;
}

Result<std::uint32_t> ToolsHcr::read_semaphore() {
  if (semaphore_held_) return kSemaphoreHeld;
  semaphore_held_ = true;  // test-and-set: the reader of 0 owns it
  return 0;
}

void ToolsHcr::write_hcr(std::uint32_t address, std::uint32_t value) {
  const std::size_t index = (address - layout_.hcr) / 4;
  hcr_[index] = value;
  if (index == kCommandDword && (value & kGoBit) != 0) run_command();
}

std::uint32_t ToolsHcr::read_mailbox(std::uint32_t address) const {
  return nv_reg::get_be32(mailbox_, address - layout_.mailbox);
}

void ToolsHcr::write_mailbox(std::uint32_t address, std::uint32_t value) {
  nv_reg::put_be32(mailbox_, address - layout_.mailbox, value);
}

void ToolsHcr::run_command() {
  ++commands_;
  const std::uint32_t word = hcr_[kCommandDword];
  Command command{.opcode = static_cast<std::uint16_t>(word & kOpcodeMask),
                  .opcode_modifier = static_cast<std::uint8_t>(word >> kOpcodeModifierShift & kOpcodeModifierMask),
                  .input_modifier = hcr_[kInputModifier],
                  .in_param_h = hcr_[kInParamH],
                  .in_param_l = hcr_[kInParamL]};
  const std::uint8_t status = execute(command);
  hcr_[kOutParamH] = command.out_param_h;
  hcr_[kOutParamL] = command.out_param_l;
  // Done: go clears and the status shows (synchronously, so a tool's first poll sees it).
  hcr_[kCommandDword] = (word & ~(kGoBit | kStatusMask)) | std::uint32_t{status} << kStatusShift;
}

bool ToolsHcr::firmware_answers() const {
  return running_mgir(*device_).has_firmware() && !device_->boot_state().firmware_hung;
}

std::uint8_t ToolsHcr::execute(Command& command) {
  if (!firmware_answers()) return kHcrStatusBadSystemState;
  const auto status_of = [](const Result<void>& filled) {
    return filled ? kHcrStatusOk : kHcrStatusBadParameter;
  };
  switch (command.opcode) {
    case kToolsHcrMailboxWrite: return mailbox_write(command);
    case kToolsHcrMailboxRead: return mailbox_read(command);
    case kToolsHcrRegisterAccess: return register_access();
    case kToolsHcrQueryDevCap: return status_of(fill_dev_cap(device_->info(), mailbox_));
    case kToolsHcrQueryDefParams:
      return status_of(fill_def_params(device_->info(), command.opcode_modifier, mailbox_));
    default: return kHcrStatusBadOpcode;
  }
}

std::uint8_t ToolsHcr::mailbox_write(const Command& command) {
  if (!quad_in_mailbox(command.input_modifier, mailbox_.size())) return kHcrStatusBadParameter;
  const std::size_t at = std::size_t{command.input_modifier} * 4;
  nv_reg::put_be32(mailbox_, at, command.in_param_l);  // the first dword travels in the low half
  nv_reg::put_be32(mailbox_, at + 4, command.in_param_h);
  return kHcrStatusOk;
}

std::uint8_t ToolsHcr::mailbox_read(Command& command) const {
  if (!quad_in_mailbox(command.input_modifier, mailbox_.size())) return kHcrStatusBadParameter;
  const std::size_t at = std::size_t{command.input_modifier} * 4;
  command.out_param_l = nv_reg::get_be32(mailbox_, at);
  command.out_param_h = nv_reg::get_be32(mailbox_, at + 4);
  return kHcrStatusOk;
}

// The TLVs are in the mailbox whichever way the tool wrote them (input_modifier 1: through
// CR-space, 0: MAILBOX_WRITE); the answer replaces them, as the ICMD path does.
std::uint8_t ToolsHcr::register_access() {
  auto request = AccessRegisterTlv::decode(mailbox_);
  if (!request) return kHcrStatusBadParameter;
  if (!answer_register(*device_, *request)) return kHcrStatusBadSystemState;
  auto encoded = request->encode(mailbox_.size());
  if (!encoded) return kHcrStatusBadParameter;
  std::copy(encoded->begin(), encoded->end(), mailbox_.begin());
  return kHcrStatusOk;
}

}  // namespace openflint::sim
