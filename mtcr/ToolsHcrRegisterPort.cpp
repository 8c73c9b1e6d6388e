// ToolsHcrRegisterPort: the tools HCR's semaphore, go bit, status and CR-space mailbox.
#include "mtcr/ToolsHcrRegisterPort.h"

#include <algorithm>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/DurationText.h"
#include "core/HexString.h"
#include "core/BigEndianFields.h"

namespace openflint {
namespace {

// HCR dwords (mstflint mtcr_tools_cif.c tools_cmdif_pack): 0 in_param_h, 1 in_param_l,
// 2 input_modifier, 3 out_param_h, 4 out_param_l, 5 token [31:16], 6 the command dword.
constexpr std::size_t kHcrDwords = 7;
constexpr std::size_t kInputModifierDword = 2;
constexpr std::size_t kCommandDword = 6;
constexpr std::uint32_t kCommandOffset = 4 * kCommandDword;
constexpr std::uint32_t kOpcodeMask = 0xfff;          // [11:0]
constexpr unsigned kOpcodeModifierShift = 12;         // [15:12]
constexpr std::uint32_t kOpcodeModifierMask = 0xf;
constexpr std::uint32_t kGoBit = 1u << 23;
constexpr unsigned kStatusShift = 24;                 // [31:24]

// Register access with input_modifier 1: the TLVs travel in the CR-space mailbox (0: through
// mailbox-write commands, 8 bytes each — firmware without the CR mailbox).
constexpr std::uint32_t kRegisterAccessCrMailbox = 1;
// What mstflint writes to the mailbox and expects back when the firmware maps it.
constexpr std::uint32_t kMailboxProbe = 0x0badb00f;
// The answer is read back in quad words (mstflint COMPLEMENT_TO_QUAD_ALIGNED).
constexpr std::size_t kMailboxReadAlign = 8;
// go polls before the first sleep, and the first sleep.
constexpr unsigned kSpinPolls = 5;
constexpr std::chrono::microseconds kFirstGoInterval{1000};

// HCR statuses (mstflint translate_status).
constexpr std::uint32_t kStatusBusy = 0x1;
constexpr std::uint32_t kStatusBadOpcode = 0x2;
constexpr std::uint32_t kStatusUnknownTlv = 0x3;
constexpr std::uint32_t kStatusBadSystemState = 0x4;
constexpr std::uint32_t kStatusResourceState = 0x9;

std::string command_name(std::uint16_t opcode) { return "tools HCR command " + hex_string(opcode); }

Error hcr_status_error(std::uint16_t opcode, std::uint32_t status) {
  const std::string what = command_name(opcode) + " answered status " + hex_string(status);
  switch (status) {
    case kStatusBusy: return Error(ErrorCode::Busy, what + " (busy)");
    case kStatusBadOpcode:
      return Error(ErrorCode::NotSupported,
                   "the firmware has no tools HCR command " + hex_string(opcode) + " (status 0x2, bad opcode)");
    case kStatusUnknownTlv: return Error(ErrorCode::InvalidArgument, what + " (bad parameter or unknown TLV)");
    case kStatusBadSystemState:
      return Error(ErrorCode::Io, what + " (bad system state: the driver or firmware is not ready)");
    case kStatusResourceState: return Error(ErrorCode::Busy, what + " (resource in the wrong state)");
    default: return Error(ErrorCode::Io, what + " (unknown status)");
  }
}

// The HCR's hardware semaphore, held from take() to destruction: a read returning 0 takes it,
// writing 0 frees it.
class SemaphoreHold {
 public:
  [[nodiscard]] static Result<SemaphoreHold> take(RegisterAccess& cr, std::uint32_t address,
                                                  const ToolsHcrOptions& options) {
    std::uint32_t value = 0;
    const auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < options.semaphore_tries; ++i) {
      if (i != 0) std::this_thread::sleep_for(options.semaphore_interval);
      OF_ASSIGN(value, cr.read32(address));
      if (value == 0) return SemaphoreHold(cr, address);
    }
    return make_error(ErrorCode::Busy, "the tools HCR semaphore is held by another agent: " + hex_string(address) +
                                           " read " + hex_string(value) + " " + std::to_string(options.semaphore_tries) +
                                           " times over " + seconds_text(std::chrono::steady_clock::now() - start));
  }
  SemaphoreHold(SemaphoreHold&& other) noexcept
      : cr_(std::exchange(other.cr_, nullptr)), address_(other.address_) {}
  SemaphoreHold& operator=(SemaphoreHold&&) = delete;
  SemaphoreHold(const SemaphoreHold&) = delete;
  SemaphoreHold& operator=(const SemaphoreHold&) = delete;
  ~SemaphoreHold() {
    if (cr_ != nullptr) (void)cr_->write32(address_, 0);  // nothing better to do if the bus failed
  }

 private:
  SemaphoreHold(RegisterAccess& cr, std::uint32_t address) : cr_(&cr), address_(address) {}
  RegisterAccess* cr_;
  std::uint32_t address_;
};

std::vector<std::uint32_t> hcr_dwords(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint32_t> out((bytes.size() + 3) / 4, 0);
  std::vector<std::uint8_t> padded(out.size() * 4, 0);
  std::copy(bytes.begin(), bytes.end(), padded.begin());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = be::get32(padded.data(), 4 * i);
  return out;
}

std::vector<std::uint8_t> to_bytes(std::span<const std::uint32_t> dwords) {
  std::vector<std::uint8_t> out(dwords.size() * 4);
  for (std::size_t i = 0; i < dwords.size(); ++i) be::put32(out.data(), 4 * i, dwords[i]);
  return out;
}

}  // namespace

Result<std::unique_ptr<ToolsHcrRegisterPort>> ToolsHcrRegisterPort::open(RegisterAccess& cr, const ToolsHcrLayout& layout,
                                                                          const ToolsHcrOptions& options) {
  if (layout.mailbox_bytes % kMailboxReadAlign != 0 || layout.mailbox_bytes <= AccessRegisterTlv::kHeaderBytes)
    return make_error(ErrorCode::InvalidArgument,
                      "tools HCR mailbox of " + std::to_string(layout.mailbox_bytes) + " bytes is not usable");
  std::unique_ptr<ToolsHcrRegisterPort> port(new ToolsHcrRegisterPort(cr, layout, options));
  OF_TRY(port->check_mailbox());
  return port;
}

Result<bool> ToolsHcrRegisterPort::clear_semaphore(RegisterAccess& cr, const ToolsHcrLayout& layout) {
  OF_ASSIGN(const std::uint32_t was, cr.read32(layout.semaphore));  // 0: it was free and this read took it
  OF_TRY(cr.write32(layout.semaphore, 0));
  return was != 0;
}

Result<void> ToolsHcrRegisterPort::check_mailbox() {
  OF_ASSIGN(const SemaphoreHold hold, SemaphoreHold::take(*cr_, layout_.semaphore, options_));
  // A hardware semaphore reads nonzero while held; plain storage (a part without the tools HCR)
  // reads back the 0 that "took" it.
  OF_ASSIGN(const std::uint32_t held, cr_->read32(layout_.semaphore));
  if (held == 0)
    return make_error(ErrorCode::NotSupported, "no tools HCR: " + hex_string(layout_.semaphore) +
                                                   " reads 0 while held, it is no hardware semaphore");
  OF_TRY(cr_->write32(layout_.mailbox, kMailboxProbe));
  OF_ASSIGN(const std::uint32_t echo, cr_->read32(layout_.mailbox));
  if (echo != kMailboxProbe)
    return make_error(ErrorCode::NotSupported,
                      "firmware too old for the tools HCR (2.31.5000 or later needed): the CR-space mailbox at " +
                          hex_string(layout_.mailbox) + " read back " + hex_dword(echo) + " for " +
                          hex_dword(kMailboxProbe));
  return {};
}

Result<std::uint32_t> ToolsHcrRegisterPort::wait_go_clear(std::uint16_t opcode, bool issued) {
  auto interval = std::min(kFirstGoInterval, options_.go_max_interval);
  for (unsigned poll = 0; poll < options_.go_polls; ++poll) {
    OF_ASSIGN(const std::uint32_t word, cr_->read32(layout_.hcr + kCommandOffset));
    if ((word & kGoBit) == 0) return word;
    if (poll >= kSpinPolls) {
      std::this_thread::sleep_for(interval);
      interval = std::min(interval * 2, options_.go_max_interval);
    }
  }
  const std::string polls = std::to_string(options_.go_polls) + " polls";
  if (issued)
    return make_error(ErrorCode::Timeout, command_name(opcode) + ": the firmware did not clear go after " + polls);
  return make_error(ErrorCode::Timeout,
                    command_name(opcode) + ": go stayed set (an earlier command never finished) for " + polls);
}

Result<void> ToolsHcrRegisterPort::write_dwords(std::uint32_t address, std::span<const std::uint32_t> values) {
  const std::size_t chunk = std::max<std::size_t>(1, cr_->max_block_dwords());
  for (std::size_t at = 0; at < values.size(); at += chunk) {
    const auto part = values.subspan(at, std::min(chunk, values.size() - at));
    OF_TRY(cr_->write_block(address + static_cast<std::uint32_t>(4 * at), part));
  }
  return {};
}

Result<void> ToolsHcrRegisterPort::read_dwords(std::uint32_t address, std::span<std::uint32_t> out) {
  const std::size_t chunk = std::max<std::size_t>(1, cr_->max_block_dwords());
  for (std::size_t at = 0; at < out.size(); at += chunk) {
    const auto part = out.subspan(at, std::min(chunk, out.size() - at));
    OF_TRY(cr_->read_block(address + static_cast<std::uint32_t>(4 * at), part));
  }
  return {};
}

Result<void> ToolsHcrRegisterPort::execute(const Command& command) {
  OF_TRY(wait_go_clear(command.opcode, false));
  std::array<std::uint32_t, kHcrDwords> hcr{};
  hcr[0] = command.in_param[0];
  hcr[1] = command.in_param[1];
  hcr[kInputModifierDword] = command.input_modifier;
  // out_param and the token (dword 5) stay 0; e (event on completion) stays clear: tools poll.
  hcr[kCommandDword] = (command.opcode & kOpcodeMask) |
                       ((std::uint32_t{command.opcode_modifier} & kOpcodeModifierMask) << kOpcodeModifierShift);
  OF_TRY(write_dwords(layout_.hcr, hcr));
  OF_TRY(cr_->write32(layout_.hcr + kCommandOffset, hcr[kCommandDword] | kGoBit));
  OF_ASSIGN(const std::uint32_t done, wait_go_clear(command.opcode, true));
  if (const std::uint32_t status = done >> kStatusShift; status != 0)
    return make_error(hcr_status_error(command.opcode, status));
  return {};
}

Result<AccessRegisterTlv> ToolsHcrRegisterPort::transact(const AccessRegisterTlv& request) {
  count_access();
  OF_ASSIGN(const auto encoded, request.encode(layout_.mailbox_bytes));
  // The whole mailbox is written (the tools HCR requires it), the request zero padded.
  std::vector<std::uint8_t> mailbox(layout_.mailbox_bytes, 0);
  std::copy(encoded.begin(), encoded.end(), mailbox.begin());
  const auto in_words = hcr_dwords(mailbox);
  const std::size_t answer_bytes =
      std::min<std::size_t>(layout_.mailbox_bytes, (encoded.size() + kMailboxReadAlign - 1) / kMailboxReadAlign * kMailboxReadAlign);
  std::vector<std::uint32_t> out_words(answer_bytes / 4);
  {
    OF_ASSIGN(const SemaphoreHold hold, SemaphoreHold::take(*cr_, layout_.semaphore, options_));
    OF_TRY(write_dwords(layout_.mailbox, in_words));
    OF_TRY(execute(Command{.opcode = kToolsHcrRegisterAccess, .input_modifier = kRegisterAccessCrMailbox}));
    OF_TRY(read_dwords(layout_.mailbox, out_words));
  }
  OF_ASSIGN_CTX(AccessRegisterTlv answer, AccessRegisterTlv::decode(to_bytes(out_words)),
                command_name(kToolsHcrRegisterAccess) + " answer");
  return answer;
}

std::size_t ToolsHcrRegisterPort::max_register_bytes() const {
  return layout_.mailbox_bytes - AccessRegisterTlv::kHeaderBytes;
}

}  // namespace openflint
