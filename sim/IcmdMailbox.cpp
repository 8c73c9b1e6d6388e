// IcmdMailbox: CTRL/mailbox registers and the synchronous command run.
#include "sim/IcmdMailbox.h"

#include "devices/PciConfigGateway.h"

namespace openflint::sim {

std::uint32_t IcmdMailbox::read32(std::uint32_t address) const {
  if (address == kIcmdCtrl) return ctrl_;
  if (address == kIcmdMailboxSize) return kBytes;
  if (address >= kIcmdMailbox && address + 4 <= kIcmdMailbox + kBytes && address % 4 == 0) {
    const std::uint32_t at = address - kIcmdMailbox;
    return std::uint32_t{mailbox_[at]} << 24 | std::uint32_t{mailbox_[at + 1]} << 16 |
           std::uint32_t{mailbox_[at + 2]} << 8 | mailbox_[at + 3];
  }
  return 0;  // the syndrome and everything else
}

void IcmdMailbox::write32(std::uint32_t address, std::uint32_t value) {
  if (address == kIcmdCtrl) {
    ctrl_ = value & 0xffff0002u;  // opcode and exmb kept; status is the firmware's
    if ((value & kIcmdBusyBit) == 0) return;
    ++commands_;
    const std::uint8_t status = handler_(static_cast<std::uint16_t>(value >> 16), mailbox_);
    ctrl_ |= std::uint32_t{status} << 8;  // busy clears: the command is done
    return;
  }
  if (address >= kIcmdMailbox && address + 4 <= kIcmdMailbox + kBytes && address % 4 == 0) {
    const std::uint32_t at = address - kIcmdMailbox;
    for (int i = 0; i < 4; ++i) mailbox_[at + static_cast<std::uint32_t>(i)] = static_cast<std::uint8_t>(value >> (24 - 8 * i));
  }
}

}  // namespace openflint::sim
