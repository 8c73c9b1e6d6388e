// FlashAccessRegisters: MFPA, MFBA, MFBE, MFMC — the flash as the running firmware reads, writes and erases it for a tool.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Result.h"
#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/registers/FirmwareFlashRegisters.h"

namespace openflint::sim {

class SimDevice;

// A query's answer: `full` copied into the request's data (cut to its size), status ok.
void fill_answer(AccessRegisterTlv& request, const std::vector<std::uint8_t>& full);

inline constexpr std::uint16_t kMfpaId = flash_reg::kMfpa;
inline constexpr std::uint16_t kMfbaId = flash_reg::kMfba;
inline constexpr std::uint16_t kMfbeId = flash_reg::kMfbe;
inline constexpr std::uint16_t kMfmcId = flash_reg::kMfmc;

// Layouts: mft-internals §4.2. Every request names bank 0 (fs); another bank is bad parameter.
// The firmware's erases and programs go through its own SPI port (SimDevice::firmware_erase /
// firmware_program): counted in counters().firmware, subject to power cuts. A power cut during
// one is Io (the device no longer answers); a chip that refuses (write protected, stuck busy)
// is internal error (0x70).

// MFPA query: one flash, its JEDEC id (capacity [23:16], type [15:8], manufacturer [7:0], which
// tools byte-swap), log2 of its smallest erase unit, bulk_64kb_erase_en when the chip has 64 KiB
// blocks, the boot address. A write (tools only set boot_address on other paths): method not supported.
void answer_mfpa(SimDevice& device, AccessRegisterTlv& request);
// MFBA query: `size` bytes (1..256) from `address`, the bytes of each data dword in reverse
// order (tools copy them into little-endian host dwords). MFBA write: the firmware programs the
// `size` bytes (1..256) at `address` (NOR: bits only clear; split at page boundaries). Past the
// end of the flash, size 0 or over 256, a register too short for its data: bad parameter.
[[nodiscard]] Result<void> answer_mfba(SimDevice& device, AccessRegisterTlv& request);
// MFBE write: erases the sector (the smallest erase unit) at `address`, or with bulk_64kb_erase
// the 64 KiB block (as its sectors, one after the other); the address must be aligned to what is
// erased and inside the flash. bulk_32kb_erase (no 32 KiB erase on the catalog's chips), both
// flags, a misaligned or outside address: bad parameter. A query: method not supported.
[[nodiscard]] Result<void> answer_mfbe(SimDevice& device, AccessRegisterTlv& request);
// MFMC query: no write protection, quad enable off, default dummy cycles. Writes: method not
// supported (the simulated firmware does not let tools change protection).
void answer_mfmc(SimDevice& device, AccessRegisterTlv& request);

}  // namespace openflint::sim
