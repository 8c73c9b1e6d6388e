// FlashDriver: NOR flash access through a device's CR-space flash gateway (probe, read, erase, program).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "devices/FlashChip.h"
#include "devices/FlashGatewayInfo.h"
#include "flash/CacheReplacement.h"
#include "flash/FlashBus.h"
#include "flash/FlashLock.h"
#include "flash/FlashReader.h"
#include "flash/FlashTimeouts.h"
#include "flash/FlashWriteStats.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Whether a write reads what it programmed back and compares it (mstflint --no_flash_verify: None).
enum class WriteCheck { ReadBack, None };

// Holds the flash lock for its whole lifetime (move-only through the lock) and drives the flash
// through one FlashBus, chosen by the catalog's gateway generation from a table
// (flash/FlashDriver.cpp kBusOpeners, flashrom's programmer table): SPI gateways through
// flash/SpiGatewayBus (16-byte transactions; chained with CS_HOLD on Phased gateways, one
// command per aligned block on Special-style ones, as mstflint's mflash does there); the
// InfiniHost parallel gateway (GatewayGeneration::ParallelFlash) through flash/ParallelFlash;
// InfiniScale I2C EEPROMs (GatewayGeneration::I2cEeprom) through flash/EepromFlash over the
// device's I2C bus (open's `i2c`). Locking, range checks, page splitting, differential
// writes and verification are shared; parts that need no erase before a program (EEPROMs) are
// never erased by a differential write, only the bytes that differ are written.
// A flash the running firmware drives for the tool (flash/FirmwareFlashBus) comes as a bus too,
// without the gateway or its lock (over_bus).
class FlashDriver final : public FlashReader {
 public:
  // Takes the gateway's lock, then opens the generation's bus: a SPI gateway checks the
  // cache-replacement guard (Busy while the firmware replaces a cache line, unless
  // CacheReplacement::Override), enables the chip selects and probes the part
  // (flash/SpiGatewayBus.h); parallel flash and EEPROMs are probed through their own buses.
  // `i2c`: the device's I2C bus for a gateway of I2C EEPROMs (a Device's transport gives it:
  // ExtPortAccess MADs in-band); null: the access's own (RegisterAccess::i2c(), a simulated device).
  [[nodiscard]] static Result<FlashDriver> open(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                FlashTimeouts timeouts = {},
                                                CacheReplacement cache = CacheReplacement::Refuse,
                                                I2cAccess* i2c = nullptr);
  // The flash behind `bus` alone: no gateway, no gateway lock (the bus's owner, e.g. a running
  // firmware, orders the work). `costly_reads`: each read block is a round trip.
  [[nodiscard]] static FlashDriver over_bus(std::unique_ptr<FlashBus> bus, bool costly_reads);

  [[nodiscard]] const FlashChip& chip() const override { return bus_->chip(); }
  [[nodiscard]] std::uint32_t jedec_id() const override { return bus_->jedec_id(); }
  [[nodiscard]] bool costly_reads() const override { return costly_; }
  // Whether the flash is driven through the CR-space gateway (false: over_bus).
  [[nodiscard]] bool through_gateway() const { return lock_.has_value(); }
  // The bus the flash is driven through (flash/SpiGatewayBus, ParallelFlash, EepromFlash,
  // FirmwareFlashBus).
  [[nodiscard]] FlashBus* bus() { return bus_.get(); }

  [[nodiscard]] Result<std::vector<std::uint8_t>> read(std::uint64_t address, std::uint64_t length,
                                                       const FlashProgress& progress = {});
  using FlashReader::read_into;
  [[nodiscard]] Result<void> read_into(std::uint64_t address, std::span<std::uint8_t> out,
                                       const FlashProgress& progress) override;
  // Erases the sector_size() unit at `address` (which must be aligned to it).
  [[nodiscard]] Result<void> erase_sector(std::uint64_t address);
  // Programs bytes into an erased area (NOR: can only clear bits), page by page.
  [[nodiscard]] Result<void> program(std::uint64_t address, std::span<const std::uint8_t> bytes);
  // Reads each sector first; erases only where a bit must go 0 -> 1, programs only the bytes
  // that differ (erased 0xFF runs are skipped), then reads back and verifies (Mismatch on error;
  // WriteCheck::None skips the read-back, as mstflint --no_flash_verify).
  // On a costly_reads() flash a whole-sector write first reads only the sector's first 16 bytes:
  // when they differ from the new data the sector is erased and programmed without reading the
  // rest (a read costs as much as the program); when they match it is read whole as above.
  [[nodiscard]] Result<FlashWriteStats> write_sectors_that_differ(std::uint64_t address,
                                                                   std::span<const std::uint8_t> bytes,
                                                                   const FlashProgress& progress = {},
                                                                   WriteCheck check = WriteCheck::ReadBack);
  [[nodiscard]] Result<std::uint8_t> read_status();

 private:
  FlashDriver(std::unique_ptr<FlashBus> bus, bool costly_reads, std::optional<FlashLock> lock);
  [[nodiscard]] Result<void> check_range(std::uint64_t address, std::uint64_t length) const;
  [[nodiscard]] Result<void> verify(std::uint32_t address, std::span<const std::uint8_t> expected);
  // Differential write of one erase unit (flash/DifferentialWrite.cpp).
  struct SectorWrite;
  [[nodiscard]] Result<void> write_sector(const SectorWrite& w, FlashWriteStats& stats);
  [[nodiscard]] Result<void> rewrite_sector(const SectorWrite& w, std::span<std::uint8_t> current, FlashWriteStats& stats);
  [[nodiscard]] Result<void> program_differences(std::uint32_t address, std::span<const std::uint8_t> base,
                                                 std::span<const std::uint8_t> desired, FlashWriteStats& stats);

  std::optional<FlashLock> lock_;  // the gateway's; none over_bus
  std::unique_ptr<FlashBus> bus_;  // declared after lock_, so released before it
  bool costly_ = false;
};

}  // namespace openflint
