// FlashGatewayInfo: where a device's flash gateway lives in CR-space and how its CMD word is laid out.
#pragma once

#include <cstdint>
#include <string_view>

#include "devices/CacheReplacementGuard.h"
#include "devices/I2cEepromMap.h"
#include "devices/ParallelGatewayLayout.h"

// Designated initializers that leave members at their defaults are the point of these data
// records; GCC 12 -Wextra flags every omitted member, so that one warning is off here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint {

// Generations of the flash interface (facts from mstflint mflash: cntx / fifth / sixth gen).
enum class GatewayGeneration {
  None,               // no CR-space flash access known
  ParallelFlash,      // InfiniHost / InfiniHost III Ex parallel CFI NOR behind CR_FLASH 0xf01a4
  InfiniHostSpi,      // InfiniHost III Lx SPI gateway: "special" commands, opcode in ADDR[31:24]
  FirmwareMediated,   // flash only reachable through firmware access registers (MFPA/MFBA/MFBE)
  ConnectX,           // 4th gen (ConnectX, ConnectX-2/3): CMD/ADDR/DATA at 0xf0400, semaphore lock
  Gen5,               // Connect-IB .. ConnectX-6, Switch-IB, Spectrum(-2): same block, CMD bit 31 lock
  Gen6,               // ConnectX-7: ADDR moved to 0xf0420, wider data-size field in bytes
  I2cEeprom,          // InfiniScale / InfiniScale III: firmware in I2C EEPROMs behind the switch's I2C master
};

[[nodiscard]] constexpr std::string_view to_string(GatewayGeneration g) {
  switch (g) {
    case GatewayGeneration::None: return "none";
    case GatewayGeneration::ParallelFlash: return "parallel-flash";
    case GatewayGeneration::InfiniHostSpi: return "infinihost-spi";
    case GatewayGeneration::FirmwareMediated: return "firmware-mediated";
    case GatewayGeneration::ConnectX: return "connectx";
    case GatewayGeneration::Gen5: return "gen5";
    case GatewayGeneration::Gen6: return "gen6";
    case GatewayGeneration::I2cEeprom: return "i2c-eeprom";
  }
  return "unknown";
}

// How the flash is locked against other agents (driver, firmware, other tools).
enum class FlashLockKind {
  None,
  Semaphore,  // a read of semaphore_addr returning 0 acquires it; writing 0 releases
  CmdBit31,   // a read of CMD returning bit 31 clear acquires (the read sets it); writing 0 releases
};

// How a CMD word describes one SPI transaction.
enum class GatewayCommandStyle : std::uint8_t {
  // ConnectX on: CMD_PHASE / ADDR_PHASE / DATA_PHASE opt in, the opcode sits in CMD, CS_HOLD
  // keeps chip select low so data-only commands continue one SPI command.
  Phased,
  // InfiniHost III Lx: SPECIAL sends the opcode from ADDR[31:24], NO_ADDR / NO_DATA opt out; a
  // command without SPECIAL is an array READ at ADDR[23:0]. No CS hold: each command is one
  // complete SPI command of at most one DATA window (16 bytes).
  Special,
};

// How the SPI part behind a gateway is identified.
enum class FlashChipProbe : std::uint8_t {
  JedecId,              // RDID 0x9F: manufacturer, type, capacity
  ElectronicSignature,  // RES 0xAB: 3 dummy bytes, then a signature byte (M25Pxx: log2(size) - 1)
};

// Bit positions inside the CMD word. Data, not code: generations differ only in these numbers.
struct GatewayLayout {
  GatewayCommandStyle style = GatewayCommandStyle::Phased;
  std::uint8_t read_op_bit = 0;
  std::uint8_t cmd_phase_bit = 2;
  std::uint8_t addr_phase_bit = 3;
  std::uint8_t data_phase_bit = 4;
  std::uint8_t cs_hold_bit = 5;
  std::uint8_t data_size_shift = 8;
  std::uint8_t data_size_width = 3;
  bool data_size_is_log2 = true;  // gen4/5: log2(bytes); gen6: bytes
  std::uint8_t chip_select_bit = 11;
  std::uint8_t flash_enable_bit = 13;  // only set when needs_flash_enable
  std::uint8_t addr4_bit = 14;
  std::uint8_t opcode_shift = 16;
  std::uint8_t busy_bit = 30;
  std::uint8_t lock_bit = 31;
  // GatewayCommandStyle::Special only.
  std::uint8_t no_data_bit = 4;
  std::uint8_t no_addr_bit = 5;
  std::uint8_t special_bit = 6;
  std::uint8_t addr_opcode_shift = 24;  // opcode in ADDR[31:24], flash address in ADDR[23:0]
};

inline constexpr GatewayLayout kConnectXGatewayLayout{};
inline constexpr GatewayLayout kGen6GatewayLayout{.data_size_width = 5,
                                                  .data_size_is_log2 = false,
                                                  .chip_select_bit = 13,
                                                  .flash_enable_bit = 0,
                                                  .addr4_bit = 15};
// InfiniHost III Lx (mstflint mflash ih3lx): READ_OP 0, NO_DATA 4, NO_ADDR 5, SPECIAL 6,
// MSIZE [10:8] log2 bytes, BUSY 30; no phase, chip-select or lock bits in CMD.
inline constexpr GatewayLayout kInfiniHostSpiGatewayLayout{.style = GatewayCommandStyle::Special,
                                                           .read_op_bit = 0,
                                                           .data_size_shift = 8,
                                                           .data_size_width = 3,
                                                           .data_size_is_log2 = true,
                                                           .busy_bit = 30,
                                                           .no_data_bit = 4,
                                                           .no_addr_bit = 5,
                                                           .special_bit = 6,
                                                           .addr_opcode_shift = 24};

struct FlashGatewayInfo {
  GatewayGeneration generation = GatewayGeneration::None;
  std::uint32_t cmd_addr = 0;
  std::uint32_t addr_addr = 0;
  std::uint32_t data_addr = 0;
  std::uint32_t data_dwords = 4;  // size of the DATA window: 16 bytes per transaction
  FlashLockKind lock = FlashLockKind::None;
  std::uint32_t semaphore_addr = 0;   // only for FlashLockKind::Semaphore
  bool needs_flash_enable = false;    // 4th gen sets the flash-enable bit in every command
  bool supports_4byte_address = false;
  GatewayLayout layout = kConnectXGatewayLayout;
  FlashChipProbe chip_probe = FlashChipProbe::JedecId;
  // Flash bank (chip) select register, 0 = the bank rides in CMD or there is none. The bank
  // number sits at bank_select_shift (InfiniHost III Lx: 0xf0418 [31:30]).
  std::uint32_t bank_select_addr = 0;
  std::uint8_t bank_select_shift = 30;
  // Chip-select support register (SwitchX, InfiniScale IV: 0xf0420 [3:0]): the driver writes the
  // mask (1 << flash_banks) - 1 there before using the CMD chip-select field; 0 = none.
  std::uint32_t chip_select_support_addr = 0;
  std::uint8_t flash_banks = 1;  // chip selects the board wires (SwitchX: 2 by default)
  // Firmware cache replacement in progress: drive the gateway only with an override.
  CacheReplacementGuard cache_guard{};
  // GatewayGeneration::ParallelFlash only: the CR_FLASH gateway and its GPIO bank select.
  ParallelGatewayLayout parallel{};
  // GatewayGeneration::I2cEeprom only: the EEPROMs on the device's I2C bus (mtcr/I2cAccess), no CR-space gateway.
  I2cEepromMap eeprom{};

  // Whether the SPI gateway driver (flash/) and simulator (sim/) handle this generation.
  [[nodiscard]] constexpr bool is_spi_gateway() const {
    return generation == GatewayGeneration::InfiniHostSpi || generation == GatewayGeneration::ConnectX ||
           generation == GatewayGeneration::Gen5 || generation == GatewayGeneration::Gen6;
  }
  // Whether the parallel CFI driver (flash/ParallelFlash) and simulator (sim/CfiNorFlash) handle it.
  [[nodiscard]] constexpr bool is_parallel_gateway() const { return generation == GatewayGeneration::ParallelFlash; }
  // Whether the storage is I2C EEPROMs (flash/EepromFlash over the device's I2cAccess; sim/I2cMaster).
  [[nodiscard]] constexpr bool is_i2c_eeprom() const { return generation == GatewayGeneration::I2cEeprom; }
  // Whether a tool can reach the firmware storage at all (CR-space gateway or I2C bus).
  [[nodiscard]] constexpr bool is_driven() const { return is_spi_gateway() || is_parallel_gateway() || is_i2c_eeprom(); }
};

// Register addresses shared by several generations (mstflint mflash_pack_layer.h facts).
inline constexpr std::uint32_t kGatewayCmdAddr = 0xf0400;
inline constexpr std::uint32_t kGatewayAddrAddr = 0xf0404;
inline constexpr std::uint32_t kGatewayDataAddr = 0xf0410;
inline constexpr std::uint32_t kGen6GatewayAddrAddr = 0xf0420;
inline constexpr std::uint32_t kFlashSemaphoreAddr = 0xf03fc;
inline constexpr std::uint32_t kHwIdAddr = 0xf0014;

}  // namespace openflint

#pragma GCC diagnostic pop
