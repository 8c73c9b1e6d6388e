// FirmwareFlashReader: reads a device's flash through its running firmware (MFPA, MFBA), never the CR-space gateway.
#pragma once

#include <cstdint>
#include <span>

#include "core/Result.h"
#include "devices/FlashChip.h"
#include "flash/FlashReader.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// On a device whose firmware runs and uses the flash, the gateway belongs to the firmware: a
// tool reads through it (mstflint's "FW access" path). Each MFBA read moves the largest power of
// two (4..256 bytes) the port's registers carry: 256 over ICMD, 128 in-band over GMP, 32 on SMP.
class FirmwareFlashReader final : public FlashReader {
 public:
  // MFPA of bank 0: the JEDEC id, looked up in the flash-chip catalog. NotSupported when the
  // firmware does not answer MFPA (no firmware flash access, or none runs), NotFound for an id
  // the catalog lacks. `port` must outlive the reader.
  [[nodiscard]] static Result<FirmwareFlashReader> open(RegisterPort& port);

  [[nodiscard]] const FlashChip& chip() const override { return *chip_; }
  [[nodiscard]] std::uint32_t jedec_id() const override { return chip_->jedec_id; }
  // Each block is a register transaction with the firmware.
  [[nodiscard]] bool costly_reads() const override { return true; }
  [[nodiscard]] std::size_t block_bytes() const { return block_; }
  using FlashReader::read_into;
  [[nodiscard]] Result<void> read_into(std::uint64_t address, std::span<std::uint8_t> out,
                                       const FlashProgress& progress) override;

 private:
  FirmwareFlashReader(RegisterPort& port, const FlashChip& chip, std::size_t block)
      : port_(&port), chip_(&chip), block_(block) {}

  RegisterPort* port_;
  const FlashChip* chip_;
  std::size_t block_;
};

}  // namespace openflint
