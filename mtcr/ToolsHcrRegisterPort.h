// ToolsHcrRegisterPort: access registers through the tools HCR of a ConnectX-3-era device, over its CR-space.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>

#include "core/Result.h"
#include "devices/ToolsHcrLayout.h"
#include "mtcr/RegisterAccess.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// Bounds of the waits (mstflint mtcr_tools_cif.c: 1024 semaphore tries a few ms apart, 2000 go
// polls backing off to 8 ms). Tests shorten them.
struct ToolsHcrOptions {
  unsigned semaphore_tries = 1024;
  std::chrono::microseconds semaphore_interval{2000};
  unsigned go_polls = 2000;
  // Polls after the first few sleep, starting at 1 ms (or this, if less) and doubling up to this.
  std::chrono::microseconds go_max_interval{8000};
};

// The tools HCR (devices/ToolsHcrLayout.h) is the pre-ICMD parts' command interface: ConnectX-3
// and ConnectX-3 Pro firmware 2.31.5000 and later map it, and its mailbox, into CR-space, so any
// CR-space transport carries it (the PCI config window, the BAR, a simulator). A register access
// is opcode 0x3b with input_modifier 1 (the mailbox in CR-space): the whole mailbox is written
// (the operation and register TLVs, zero padded), the command runs, and the answer TLVs are read
// back from the mailbox. Every command holds the HCR's hardware semaphore, released on every path.
class ToolsHcrRegisterPort final : public RegisterPort {
 public:
  // Checks once, holding the semaphore, that the semaphore is a hardware one (it reads nonzero
  // while held) and that the firmware maps the mailbox (a word written there reads back).
  // NotSupported when either fails (no tools HCR; firmware older than 2.31.5000), Busy when the
  // semaphore stays held. `cr` must outlive the port.
  [[nodiscard]] static Result<std::unique_ptr<ToolsHcrRegisterPort>> open(RegisterAccess& cr, const ToolsHcrLayout& layout,
                                                                          const ToolsHcrOptions& options = {});

  // Frees the HCR's semaphore whoever holds it (a tool that died holding it): one read (which
  // takes it when it is free) and a write of 0. True when it was held. `cr` must carry the read's
  // side effect (on PCI the config-space window, not a BAR mapping). Only safe when no live
  // agent is using the HCR.
  [[nodiscard]] static Result<bool> clear_semaphore(RegisterAccess& cr, const ToolsHcrLayout& layout);

  // One register access. The answer's register status stays in the TLV; an HCR status is an
  // error naming it (NotSupported for a bad opcode, Busy, Io, ...), as are Timeout and Busy.
  [[nodiscard]] Result<AccessRegisterTlv> transact(const AccessRegisterTlv& request) override;
  // The mailbox less the operation and register TLV headers.
  [[nodiscard]] std::size_t max_register_bytes() const override;

 private:
  // One command as the HCR's dwords 0..4 and the opcode fields of dword 6 carry it.
  struct Command {
    std::uint16_t opcode = 0;
    std::uint8_t opcode_modifier = 0;
    std::uint32_t input_modifier = 0;
    std::array<std::uint32_t, 2> in_param{};  // high, low
  };

  ToolsHcrRegisterPort(RegisterAccess& cr, const ToolsHcrLayout& layout, const ToolsHcrOptions& options)
      : cr_(&cr), layout_(layout), options_(options) {}
  [[nodiscard]] Result<void> check_mailbox();
  // Waits for go to clear; returns the command dword that showed it clear.
  [[nodiscard]] Result<std::uint32_t> wait_go_clear(std::uint16_t opcode, bool issued);
  // Runs `command` under the semaphore (the caller holds it).
  [[nodiscard]] Result<void> execute(const Command& command);
  // Blocks of at most max_block_dwords() dwords.
  [[nodiscard]] Result<void> write_dwords(std::uint32_t address, std::span<const std::uint32_t> values);
  [[nodiscard]] Result<void> read_dwords(std::uint32_t address, std::span<std::uint32_t> out);

  RegisterAccess* cr_;
  ToolsHcrLayout layout_;
  ToolsHcrOptions options_;
};

}  // namespace openflint
