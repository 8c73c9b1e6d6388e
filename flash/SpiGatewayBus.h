// SpiGatewayBus: a SPI flash behind a device's CR-space flash gateway, driven one gateway transaction at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "core/Result.h"
#include "devices/FlashChip.h"
#include "devices/FlashGatewayInfo.h"
#include "flash/CacheReplacement.h"
#include "flash/FlashBus.h"
#include "flash/FlashTimeouts.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// The most data bytes one SPI gateway transaction moves (the gateway's DATA registers).
inline constexpr std::uint32_t kMaxSpiTransactionBytes = 16;

// The SPI command set (flash/FlashBus) over the gateway registers the catalog describes: ADDR, DATA
// and CMD written as one ordered sequence, CMD polled until BUSY clears. Gateways with chip-select
// hold chain a READ or PAGE PROGRAM over several transactions; the Special command style (SwitchX
// class) sends each 16-byte block as its own command. The caller (FlashDriver) holds the gateway
// lock for the bus's whole life.
class SpiGatewayBus final : public FlashBus {
 public:
  // Checks the cache-replacement guard (gateways that have one: Busy while the firmware replaces a
  // cache line, unless CacheReplacement::Override), enables the chip selects the gateway's
  // chip-select support register lists, selects bank 0, and probes the part (JEDEC id or
  // electronic signature) in the flash-chip catalog. The part on chip select 0 is the flash: a
  // second bank (SwitchX boards may wire 2) is enabled but not used (docs/legacy-devices.md).
  [[nodiscard]] static Result<std::unique_ptr<SpiGatewayBus>> open(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                                   FlashTimeouts timeouts, CacheReplacement cache);

  [[nodiscard]] const FlashChip& chip() const override { return *chip_; }
  // The id the part answered (a part probed by its electronic signature: the catalog's id of it).
  [[nodiscard]] std::uint32_t jedec_id() const override { return jedec_id_; }
  [[nodiscard]] Result<void> read(std::uint32_t address, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> erase(std::uint32_t address) override;
  [[nodiscard]] Result<void> program(std::uint32_t address, std::span<const std::uint8_t> bytes) override;
  [[nodiscard]] Result<std::uint8_t> read_status() override;

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

  SpiGatewayBus(RegisterAccess& access, const FlashGatewayInfo& gateway, FlashTimeouts timeouts)
      : access_(access), gateway_(gateway), timeouts_(timeouts) {}
  [[nodiscard]] Result<void> probe();
  [[nodiscard]] Result<void> probe_signature();
  [[nodiscard]] bool special() const { return gateway_.layout.style == GatewayCommandStyle::Special; }
  [[nodiscard]] std::uint32_t command_word(const Transaction& t, std::uint32_t data_bytes) const;
  [[nodiscard]] std::uint32_t special_command_word(const Transaction& t, std::uint32_t data_bytes,
                                                   std::uint32_t& addr_word) const;
  [[nodiscard]] Result<void> run(const Transaction& t);
  // 0, or the dwords of one block read covering CMD .. the end of the DATA window.
  [[nodiscard]] std::size_t combined_poll_dwords(std::uint32_t data_dwords) const;
  // Polls CMD (with whatever follows it in `polled`) until BUSY clears; `polled` holds the first poll.
  [[nodiscard]] Result<void> wait_gateway(std::span<std::uint32_t> polled);
  [[nodiscard]] Result<void> wait_ready(std::string_view what);
  [[nodiscard]] Result<void> write_enable();
  [[nodiscard]] Result<void> read_blocks(std::uint32_t address, std::span<std::uint8_t> out);
  [[nodiscard]] Result<void> program_blocks(std::uint32_t address, std::span<const std::uint8_t> bytes);

  RegisterAccess& access_;
  FlashGatewayInfo gateway_;
  FlashTimeouts timeouts_;
  const FlashChip* chip_ = nullptr;
  std::uint32_t jedec_id_ = 0;
  bool four_byte_ = false;
};

}  // namespace openflint
