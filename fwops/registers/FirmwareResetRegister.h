// FirmwareResetRegister: query and arm the firmware's reset register (MFRL) through ICMD or a given register port.
#pragma once

#include <cstdint>
#include <filesystem>

#include "core/Result.h"
#include "mtcr/registers/MfrlRegister.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// The reset levels of mstfwreset, and their MFRL reset_trigger bit (0 for a level we do not know).
[[nodiscard]] std::uint8_t mfrl_level_bit(int level);

// MFRL of the function at `pci_dir` (<sysfs root>/devices/<BDF>) through its ICMD mailbox,
// opened for this call only. NotSupported when the function has no ICMD (a pre-VSEC part) or the
// firmware answers that it has no such register; Io when the firmware does not answer.
[[nodiscard]] Result<MfrlRegister> query_reset_register(const std::filesystem::path& pci_dir);

// Arms `levels` (reset_trigger bits) with reset type `type` (0 full chip) and the tool as the
// owner of the PCI reset (sync 0, link-disable/hot-reset method `pci_method`), then reads MFRL
// back: InvalidArgument when the firmware refuses the request (bad parameter), Io when it
// accepted it but does not show the reset pending.
[[nodiscard]] Result<MfrlRegister> arm_reset_register(const std::filesystem::path& pci_dir, std::uint8_t levels,
                                                      std::uint8_t type, std::uint8_t pci_method);

// The same through an open register port (a remote device's: mtcr/remote/RemoteRegisterPort.h).
[[nodiscard]] Result<MfrlRegister> query_reset_register(RegisterPort& port);
[[nodiscard]] Result<MfrlRegister> arm_reset_register(RegisterPort& port, std::uint8_t levels, std::uint8_t type,
                                                      std::uint8_t pci_method);

}  // namespace openflint
