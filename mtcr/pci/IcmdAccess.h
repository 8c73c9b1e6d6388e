// IcmdAccess: commands to the running firmware through the ICMD mailbox of a VSEC device (access registers over PCI).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/pci/PciConfigAccess.h"

namespace openflint {

// devices/PciConfigGateway.h has the layout. Each command holds the ICMD semaphore (a ticket
// written and read back in the SEMAPHORE space), checks the interface is idle, writes the
// mailbox, sets opcode and busy, polls busy until the firmware clears it, reads the status and
// the mailbox, and releases the semaphore on every path.
class IcmdAccess {
 public:
  // NotSupported when the device has no ICMD space (a pre-VSEC part, or no firmware interface).
  // `config` must outlive this object.
  [[nodiscard]] static Result<IcmdAccess> open(PciConfigAccess& config);

  // Runs `opcode` with `in` (a multiple of 4 bytes) and returns the first `out_bytes` of the
  // mailbox. A nonzero status is NotSupported (bad opcode), Busy, or Io, naming it.
  [[nodiscard]] Result<std::vector<std::uint8_t>> command(std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                          std::size_t out_bytes);
  // An access register (MGIR, MFRL, ...) through kIcmdAccessRegister; the answer's TLV status is
  // left for the caller (AccessRegisterTlv::status).
  [[nodiscard]] Result<AccessRegisterTlv> access_register(const AccessRegisterTlv& request);

  [[nodiscard]] std::uint32_t mailbox_size() const { return mailbox_size_; }

 private:
  IcmdAccess(PciConfigAccess& config, std::uint32_t mailbox_size) : config_(&config), mailbox_size_(mailbox_size) {}
  [[nodiscard]] Result<void> take_semaphore();
  void release_semaphore();
  [[nodiscard]] Result<std::vector<std::uint8_t>> run_locked(std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                             std::size_t out_bytes);

  PciConfigAccess* config_;
  std::uint32_t mailbox_size_;
};

}  // namespace openflint
