// FlashAccessRegisters: MFPA and MFBA reads — the flash as the running firmware reads it for a tool.
#pragma once

#include <cstdint>

#include "mtcr/AccessRegisterTlv.h"
#include "mtcr/FirmwareFlashRegisters.h"

namespace openflint::sim {

class SimDevice;

inline constexpr std::uint16_t kMfpaId = flash_reg::kMfpa;
inline constexpr std::uint16_t kMfbaId = flash_reg::kMfba;

// MFPA query of bank 0: one flash, its JEDEC id (capacity [23:16], type [15:8], manufacturer
// [7:0], which tools byte-swap), log2 of its smallest erase unit, the boot address. Another
// bank, or a write: bad parameter.
void answer_mfpa(SimDevice& device, AccessRegisterTlv& request);
// MFBA query: `size` bytes (at most 256) from `address` of bank 0, read by the firmware's own
// SPI port, the bytes of each data dword in reverse order (tools copy them into little-endian
// host dwords). Writes are not modelled (method not supported).
void answer_mfba(SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
