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

// Holds the flash lock for its whole lifetime (move-only through the lock). Every gateway
// transaction moves at most 16 bytes; on Phased gateways page programs chain them with CS_HOLD
// up to the page end. Special-style gateways (InfiniHost III Lx) cannot chain: reads go in
// aligned 16-byte blocks, and every program is one WREN + one 16-byte page program (padded
// with 0xFF) + a WIP wait, as mstflint's mflash does there.
// The gateway kind in the catalog record chooses the bus: SPI gateways are driven here; the
// InfiniHost parallel gateway (GatewayGeneration::ParallelFlash) through flash/ParallelFlash
// (a FlashBus); InfiniScale I2C EEPROMs (GatewayGeneration::I2cEeprom) through flash/EepromFlash
// over the access's I2C bus (RegisterAccess::i2c()). Locking, range checks, differential writes
// and verification are shared; parts that need no erase before a program (EEPROMs) are never erased
// by a differential write, only the bytes that differ are written.
// A flash the running firmware drives for the tool (flash/FirmwareFlashBus) comes as a bus too,
// without the gateway or its lock (over_bus).
class FlashDriver final : public FlashReader {
 public:
  // Takes the lock, checks the cache-replacement guard (gateways that have one: Busy while the
  // firmware replaces a cache line, unless CacheReplacement::Override), enables the chip
  // selects the gateway's chip-select support register lists, reads the JEDEC id and finds the
  // part in the flash-chip catalog. The part on chip select 0 is the flash: a second bank
  // (SwitchX boards may wire 2) is enabled but not used (docs/legacy-devices.md).
  [[nodiscard]] static Result<FlashDriver> open(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                FlashTimeouts timeouts = {},
                                                CacheReplacement cache = CacheReplacement::Refuse);
  // The flash behind `bus` alone: no gateway, no gateway lock (the bus's owner, e.g. a running
  // firmware, orders the work). `costly_reads`: each read block is a round trip.
  [[nodiscard]] static FlashDriver over_bus(std::unique_ptr<FlashBus> bus, bool costly_reads);

  [[nodiscard]] const FlashChip& chip() const override { return *chip_; }
  [[nodiscard]] std::uint32_t jedec_id() const override { return jedec_id_; }
  [[nodiscard]] bool costly_reads() const override { return costly_; }
  // Whether the flash is driven through the CR-space gateway (false: over_bus).
  [[nodiscard]] bool through_gateway() const { return access_ != nullptr; }
  // The bus of a parallel or EEPROM part (null for SPI gateways, which this class drives itself).
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
  struct Transaction {
    std::uint8_t opcode = 0;
    bool cmd_phase = true;
    bool addr_phase = false;
    bool cs_hold = false;
    std::uint32_t address = 0;
    std::span<std::uint8_t> in;         // data read from the chip
    std::span<const std::uint8_t> out;  // data sent to the chip
  };

  FlashDriver(RegisterAccess& access, const FlashGatewayInfo& gateway, FlashTimeouts timeouts,
              FlashLock lock);
  FlashDriver(std::unique_ptr<FlashBus> bus, bool costly_reads);
  [[nodiscard]] Result<void> probe();
  [[nodiscard]] Result<void> probe_signature();
  [[nodiscard]] bool special() const { return gateway_.layout.style == GatewayCommandStyle::Special; }
  [[nodiscard]] std::uint32_t special_command_word(const Transaction& t, std::uint32_t data_bytes,
                                                   std::uint32_t& addr_word) const;
  [[nodiscard]] Result<void> read_blocks(std::uint32_t address, std::span<std::uint8_t> out);
  [[nodiscard]] Result<void> program_blocks(std::uint32_t address, std::span<const std::uint8_t> bytes);
  [[nodiscard]] Result<void> run(const Transaction& t);
  [[nodiscard]] std::uint32_t command_word(const Transaction& t, std::uint32_t data_bytes) const;
  // 0, or the dwords of one block read covering CMD .. the end of the DATA window.
  [[nodiscard]] std::size_t combined_poll_dwords(std::uint32_t data_dwords) const;
  // Polls CMD (with whatever follows it in `polled`) until BUSY clears; `polled` holds the first poll.
  [[nodiscard]] Result<void> wait_gateway(std::span<std::uint32_t> polled);
  [[nodiscard]] Result<void> wait_ready(std::string_view what);
  [[nodiscard]] Result<void> write_enable();
  [[nodiscard]] Result<void> read_chain(std::uint32_t address, std::span<std::uint8_t> out);
  [[nodiscard]] Result<void> program_page(std::uint32_t address, std::span<const std::uint8_t> bytes);
  [[nodiscard]] Result<void> check_range(std::uint64_t address, std::uint64_t length) const;
  [[nodiscard]] Result<void> verify(std::uint32_t address, std::span<const std::uint8_t> expected);
  // Differential write of one erase unit (flash/DifferentialWrite.cpp).
  struct SectorWrite;
  [[nodiscard]] Result<void> write_sector(const SectorWrite& w, FlashWriteStats& stats);
  [[nodiscard]] Result<void> rewrite_sector(const SectorWrite& w, std::span<std::uint8_t> current, FlashWriteStats& stats);
  [[nodiscard]] Result<void> program_differences(std::uint32_t address, std::span<const std::uint8_t> base,
                                                 std::span<const std::uint8_t> desired, FlashWriteStats& stats);

  RegisterAccess* access_ = nullptr;  // null over_bus
  FlashGatewayInfo gateway_;
  FlashTimeouts timeouts_;
  std::optional<FlashLock> lock_;  // the gateway's; none over_bus
  std::unique_ptr<FlashBus> bus_;  // parallel parts, EEPROMs, firmware; declared after lock_, so released before it
  const FlashChip* chip_ = nullptr;
  std::uint32_t jedec_id_ = 0;
  bool four_byte_ = false;
  bool costly_ = false;
};

}  // namespace openflint
