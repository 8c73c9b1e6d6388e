// FirmwareRegisters: the access registers a simulated device's running firmware answers (MGIR, MFRL, component update), on any transport.
#pragma once

#include "core/Result.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/MgirRegister.h"
#include "mtcr/registers/MfrlRegister.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

// Register-access TLV statuses (the operation TLV's [14:8]).
inline constexpr std::uint8_t kRegisterNotSupported = AccessRegisterTlv::kStatusRegisterNotSupported;
inline constexpr std::uint8_t kMethodNotSupported = AccessRegisterTlv::kStatusMethodNotSupported;
inline constexpr std::uint8_t kBadParameter = AccessRegisterTlv::kStatusBadParameter;

// MGIR from the boot state: the hw id, and the running FW version and PSID (all zero when no
// firmware runs: flash recovery, or not booted).
[[nodiscard]] MgirRegister running_mgir(const SimDevice& device);

// Answers `request` in place, as the firmware would: MGIR query fills data (truncated to the
// request's size), a write is kMethodNotSupported. MFRL (on a device whose reset_register() has
// levels, else kRegisterNotSupported): a query returns the supported levels and types and the
// state (idle, or waiting for the PCI reset once armed); a write arms the levels it names
// (kBadParameter for none, an unsupported level or type). MCAM (on a device whose catalog
// record has firmware component update or a firmware tracer, while firmware runs);
// MTRC_CAP/CONF/STDB/CTRL on tracer families (sim/TracerRegisters.h); MCQS, MCQI, MCC, MCDA (when
// SimDevice::component_update_offered()), else kRegisterNotSupported: sim/CapabilityRegister.h,
// sim/ComponentRegisters.h. MFPA, MFBA (reads and writes), MFBE and MFMC on the same devices while
// firmware runs, with or without MCC (sim/FlashAccessRegisters.h). MTMP query (0x900A): sensor 0 reads
// SimDevice::temperature_c() in 0.125 degree units, warning thresholds 105/100 C. Any other register:
// kRegisterNotSupported. Io when the device is powered off (no firmware answers), Timeout when
// its firmware hung (BootState::firmware_hung). On a tracer family the firmware traces every access
// it refuses (a non-zero status) and ends the burst (sim/FirmwareTracer.h).
[[nodiscard]] Result<void> answer_register(SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
