// IcmdMailbox: the device side of the ICMD interface in a simulated VSEC's ICMD address space.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace openflint::sim {

// CTRL, the read-only mailbox size, the syndrome and the mailbox (devices/PciConfigGateway.h).
// Writing CTRL with the busy bit set runs the command at once: the handler gets the opcode and
// the mailbox bytes (big-endian dwords), rewrites the mailbox in place and returns the status
// (0 ok); busy then reads clear. Addresses outside these registers read 0 and ignore writes.
class IcmdMailbox {
 public:
  static constexpr std::uint32_t kBytes = 0x340;
  using Handler = std::function<std::uint8_t(std::uint16_t opcode, std::span<std::uint8_t> mailbox)>;

  explicit IcmdMailbox(Handler handler) : handler_(std::move(handler)), mailbox_(kBytes, 0) {}

  [[nodiscard]] std::uint32_t read32(std::uint32_t address) const;
  void write32(std::uint32_t address, std::uint32_t value);
  // Commands run so far (for tests).
  [[nodiscard]] std::uint64_t commands() const { return commands_; }

 private:
  Handler handler_;
  std::vector<std::uint8_t> mailbox_;
  std::uint32_t ctrl_ = 0;  // opcode [31:16], status [15:8]; busy never stays set
  std::uint64_t commands_ = 0;
};

}  // namespace openflint::sim
