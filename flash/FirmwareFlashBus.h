// FirmwareFlashBus: a device's flash driven through its running firmware (MFBA reads and writes, MFBE erases), never the CR-space gateway.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/Result.h"
#include "devices/FlashChip.h"
#include "flash/FirmwareFlashReader.h"
#include "flash/FlashBus.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// mstflint's "FW access" path (mflash over ICMD or MADs, mft-internals §4.6): on a device whose
// running firmware uses the flash, a tool asks the firmware to read, program and erase it. Each
// call returns when the firmware answered, that is when the work is done (read_status() is
// then never busy). Reads go in FirmwareFlashReader's blocks; writes in the largest power of two
// the port carries, at most 128 bytes (mflash: 128 over ICMD, 32 on SMP), aligned to that size;
// erases one sector (the chip's smallest erase unit, MFPA's sector_size) per MFBE.
class FirmwareFlashBus final : public FlashBus {
 public:
  // MFPA probe as FirmwareFlashReader::open: NotSupported when the firmware
  // offers no flash access, or reports a sector size other than the catalog chip's smallest
  // erase unit. `port` must outlive the bus.
  [[nodiscard]] static Result<std::unique_ptr<FirmwareFlashBus>> open(RegisterPort& port);

  [[nodiscard]] const FlashChip& chip() const override { return reader_.chip(); }
  [[nodiscard]] std::size_t write_block_bytes() const { return write_block_; }
  [[nodiscard]] Result<void> read(std::uint32_t address, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> erase(std::uint32_t address) override;
  [[nodiscard]] Result<void> program(std::uint32_t address, std::span<const std::uint8_t> bytes) override;
  [[nodiscard]] Result<std::uint8_t> read_status() override { return std::uint8_t{0}; }

 private:
  FirmwareFlashBus(RegisterPort& port, FirmwareFlashReader reader, std::size_t write_block)
      : port_(&port), reader_(std::move(reader)), write_block_(write_block) {}

  RegisterPort* port_;
  FirmwareFlashReader reader_;
  std::size_t write_block_;
};

}  // namespace openflint
