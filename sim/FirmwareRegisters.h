// FirmwareRegisters: the access registers a simulated device's running firmware answers (MGIR), on any transport.
#pragma once

#include "core/Result.h"
#include "mtcr/AccessRegisterTlv.h"
#include "mtcr/MgirRegister.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

// Register-access TLV statuses (the operation TLV's [14:8]).
inline constexpr std::uint8_t kRegisterNotSupported = 4;
inline constexpr std::uint8_t kMethodNotSupported = 6;

// MGIR from the boot state: the hw id, and the running FW version and PSID (all zero when no
// firmware runs: flash recovery, or not booted).
[[nodiscard]] MgirRegister running_mgir(const SimDevice& device);

// Answers `request` in place, as the firmware would: MGIR query fills data (truncated to the
// request's size); any other register gets status kRegisterNotSupported, a write to MGIR
// kMethodNotSupported. Io when the device is powered off (no firmware answers).
[[nodiscard]] Result<void> answer_register(const SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
