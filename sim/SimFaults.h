// SimFaults: fault injection settings of a simulated device (the code under test knows nothing of them).
#pragma once

#include <cstdint>

namespace openflint::sim {

struct SimFaults {
  // Power is cut right after this many more flash erase/program operations took effect
  // (0 = never). Afterwards every register access fails with ErrorCode::Io until power_cycle().
  std::uint64_t power_cut_after_ops = 0;
  // The nth gateway command from now fails with ErrorCode::Io and is not executed (0 = never).
  std::uint64_t fail_gateway_command = 0;
  // Erase/program keep WIP set for this many status polls (slow flash).
  std::uint32_t flash_busy_polls = 0;
  // WIP never clears after an erase/program (a chip that never gets ready).
  bool flash_stuck_busy = false;
  // The chip ignores erase/program (status-register or WP# protection).
  bool flash_write_protected = false;
  // The running firmware has no reset register: MFRL answers "register not supported" (older
  // firmware of a part whose catalog record has one).
  bool no_reset_register = false;
  // The firmware is replacing a flash cache line: the gateway's cache-replacement registers
  // (SwitchX 0xf0408 / 0xf040c) read non-zero until a write to the hw-id register makes it
  // finish (the override's trigger). No effect on gateways without the guard.
  bool cache_replacement_pending = false;
};

}  // namespace openflint::sim
