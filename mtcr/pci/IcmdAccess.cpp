// IcmdAccess: semaphore, mailbox, go bit and status of the ICMD interface.
#include "mtcr/pci/IcmdAccess.h"

#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "core/DurationText.h"
#include "core/HexString.h"

namespace openflint {
namespace {

constexpr unsigned kSemaphoreTries = 256;
constexpr auto kBusyTimeout = std::chrono::seconds(5);

std::uint32_t ticket() { return static_cast<std::uint32_t>(::getpid()) | 0x80000000u; }  // nonzero

std::vector<std::uint32_t> to_dwords(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint32_t> out((bytes.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < bytes.size(); ++i) out[i / 4] |= std::uint32_t{bytes[i]} << (8 * (3 - i % 4));
  return out;
}

Error status_error(std::uint16_t opcode, std::uint32_t status) {
  const std::string what = "ICMD " + hex_string(opcode) + " answered status " + std::to_string(status);
  switch (status) {
    case 1: return Error(ErrorCode::NotSupported, what + " (unknown opcode)");
    case 5: return Error(ErrorCode::Busy, what + " (busy)");
    case 2: return Error(ErrorCode::InvalidArgument, what + " (bad command)");
    case 4: return Error(ErrorCode::InvalidArgument, what + " (bad parameter)");
    default: return Error(ErrorCode::Io, what);
  }
}

}  // namespace

Result<IcmdAccess> IcmdAccess::open(PciConfigAccess& config) {
  std::uint32_t size = 0;
  OF_TRY_CTX(config.read_space(VsecSpace::Icmd, kIcmdMailboxSize, std::span(&size, 1)), "no ICMD interface");
  if (size < AccessRegisterTlv::kHeaderBytes + 8 || size > 0x10000)
    return make_error(ErrorCode::NotSupported, "ICMD mailbox size " + hex_string(size) + " is not usable");
  return IcmdAccess(config, size);
}

Result<void> IcmdAccess::take_semaphore() {
  const std::uint32_t mine = ticket();
  std::uint32_t holder = 0;
  const auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < kSemaphoreTries; ++i) {
    if (i != 0) std::this_thread::sleep_for(std::chrono::milliseconds(1 + i % 8));
    OF_TRY(config_->write_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&mine, 1)));
    OF_TRY(config_->read_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&holder, 1)));
    if (holder == mine) return {};
  }
  return make_error(ErrorCode::Busy, "the ICMD semaphore is held by another agent: still held after " +
                                         seconds_text(std::chrono::steady_clock::now() - start) + " (ticket " +
                                         hex_string(holder) + ", " + std::to_string(kSemaphoreTries) + " tries)");
}

void IcmdAccess::release_semaphore() {
  const std::uint32_t zero = 0;
  (void)config_->write_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&zero, 1));
}

Result<std::vector<std::uint8_t>> IcmdAccess::command(std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                      std::size_t out_bytes) {
  if (in.size() % 4 != 0 || in.size() > mailbox_size_ || out_bytes > mailbox_size_)
    return make_error(ErrorCode::InvalidArgument, "ICMD " + hex_string(opcode) + ": " + std::to_string(in.size()) + "/" +
                                                      std::to_string(out_bytes) + " bytes do not fit the " +
                                                      std::to_string(mailbox_size_) + "-byte mailbox");
  OF_TRY(take_semaphore());
  struct Release {  // on every path out, an exception's too
    IcmdAccess* self;
    ~Release() { self->release_semaphore(); }
  } release{this};
  return run_locked(opcode, in, out_bytes);
}

Result<std::vector<std::uint8_t>> IcmdAccess::run_locked(std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                         std::size_t out_bytes) {
  std::uint32_t ctrl = 0;
  OF_TRY(config_->read_space(VsecSpace::Icmd, kIcmdCtrl, std::span(&ctrl, 1)));
  if ((ctrl & kIcmdBusyBit) != 0) return make_error(ErrorCode::Busy, "ICMD interface busy (CTRL " + hex_string(ctrl) + ")");
  const auto words = to_dwords(in);
  OF_TRY(config_->write_space(VsecSpace::Icmd, kIcmdMailbox, words));
  const std::uint32_t go = (std::uint32_t{opcode} << 16) | kIcmdBusyBit;
  OF_TRY(config_->write_space(VsecSpace::Icmd, kIcmdCtrl, std::span(&go, 1)));
  const auto deadline = std::chrono::steady_clock::now() + kBusyTimeout;
  for (unsigned poll = 0;; ++poll) {
    OF_TRY(config_->read_space(VsecSpace::Icmd, kIcmdCtrl, std::span(&ctrl, 1)));
    if ((ctrl & kIcmdBusyBit) == 0) break;
    if (std::chrono::steady_clock::now() > deadline)
      return make_error(ErrorCode::Timeout, "ICMD " + hex_string(opcode) + " still busy after 5 s");
    if (poll > 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (const std::uint32_t status = (ctrl >> 8) & 0xff; status != 0) return make_error(status_error(opcode, status));
  std::vector<std::uint32_t> out_words((out_bytes + 3) / 4);
  OF_TRY(config_->read_space(VsecSpace::Icmd, kIcmdMailbox, out_words));
  std::vector<std::uint8_t> out(out_bytes);
  for (std::size_t i = 0; i < out_bytes; ++i) out[i] = static_cast<std::uint8_t>(out_words[i / 4] >> (8 * (3 - i % 4)));
  return out;
}

Result<AccessRegisterTlv> IcmdAccess::access_register(const AccessRegisterTlv& request) {
  const std::size_t bytes = AccessRegisterTlv::kHeaderBytes + request.data.size();
  OF_ASSIGN(const auto encoded, request.encode(bytes));
  OF_ASSIGN(const auto answer, command(kIcmdAccessRegister, encoded, bytes));
  return AccessRegisterTlv::decode(answer);
}

}  // namespace openflint
