// CatalogGateways: the flash gateway records shared by several devices (internal catalog data).
#pragma once

#include "devices/DeviceInfo.h"
#include "devices/FlashGatewayInfo.h"

// Designated initializers that leave members at their defaults are the point of these data
// records; GCC 12 -Wextra flags every omitted member, so that one warning is off here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace openflint::catalog {

// InfiniHost / InfiniHost III Ex: parallel CFI NOR via CR_FLASH 0xf01a4 (command + address) and
// 0xf01a8 (data), banks of 512 KiB on GPIO[6:4], lock = the 0xf03fc semaphore (docs/legacy-devices.md).
inline constexpr FlashGatewayInfo kParallelGateway{.generation = GatewayGeneration::ParallelFlash,
                                                   .cmd_addr = kInfiniHostParallelLayout.cmd_addr,
                                                   .addr_addr = kInfiniHostParallelLayout.cmd_addr,
                                                   .data_addr = kInfiniHostParallelLayout.data_addr,
                                                   .data_dwords = 1,
                                                   .lock = FlashLockKind::Semaphore,
                                                   .semaphore_addr = kFlashSemaphoreAddr,
                                                   .parallel = kInfiniHostParallelLayout};

// InfiniHost III Lx SPI gateway (mstflint mflash ih3lx: CR_FLASH_GW 0xf0400, ADDR 0xf0404 with
// the opcode in [31:24], DATA 0xf0408 (16-byte blocks), bank select 0xf0418 [31:30]; the part is
// identified by RES 0xAB; lock = the InfiniHost 0xf03fc semaphore).
inline constexpr FlashGatewayInfo kInfiniHostSpiGateway{
    .generation = GatewayGeneration::InfiniHostSpi,
    .cmd_addr = 0xf0400,
    .addr_addr = 0xf0404,
    .data_addr = 0xf0408,
    .data_dwords = 4,
    .lock = FlashLockKind::Semaphore,
    .semaphore_addr = kFlashSemaphoreAddr,
    .layout = kInfiniHostSpiGatewayLayout,
    .chip_probe = FlashChipProbe::ElectronicSignature,
    .bank_select_addr = 0xf0418,
    .bank_select_shift = 30};

// 4th gen (ConnectX .. ConnectX-3 Pro): lock is the 0xf03fc semaphore, flash-enable bit needed.
inline constexpr FlashGatewayInfo kConnectXGateway{.generation = GatewayGeneration::ConnectX,
                                                   .cmd_addr = kGatewayCmdAddr,
                                                   .addr_addr = kGatewayAddrAddr,
                                                   .data_addr = kGatewayDataAddr,
                                                   .data_dwords = 4,
                                                   .lock = FlashLockKind::Semaphore,
                                                   .semaphore_addr = kFlashSemaphoreAddr,
                                                   .needs_flash_enable = true};

// 5th gen, 3-byte addressing (Connect-IB, ConnectX-4/4 Lx/5, Switch-IB/2, Spectrum).
inline constexpr FlashGatewayInfo kGen5Gateway{.generation = GatewayGeneration::Gen5,
                                               .cmd_addr = kGatewayCmdAddr,
                                               .addr_addr = kGatewayAddrAddr,
                                               .data_addr = kGatewayDataAddr,
                                               .data_dwords = 4,
                                               .lock = FlashLockKind::CmdBit31};

// 5th gen register block with 4-byte addressing (ConnectX-6, Spectrum-2).
inline constexpr FlashGatewayInfo kGen5Gateway4B = [] {
  FlashGatewayInfo g = kGen5Gateway;
  g.supports_4byte_address = true;
  return g;
}();

// 6th gen (ConnectX-7): ADDR at 0xf0420, byte-count data size, chip select bit 13.
inline constexpr FlashGatewayInfo kGen6Gateway{.generation = GatewayGeneration::Gen6,
                                               .cmd_addr = kGatewayCmdAddr,
                                               .addr_addr = kGen6GatewayAddrAddr,
                                               .data_addr = kGatewayDataAddr,
                                               .data_dwords = 4,
                                               .lock = FlashLockKind::CmdBit31,
                                               .supports_4byte_address = true,
                                               .layout = kGen6GatewayLayout};

// Quantum and Spectrum-3 (the 16 nm "raven" switches): the 4-byte gen5 block, and the firmware's
// cache-replacement guard at 0xf0440 / 0xf0448 (mstflint 4.21 check_cache_replacement_guard).
inline constexpr FlashGatewayInfo kRavenSwitchGateway = [] {
  FlashGatewayInfo g = kGen5Gateway4B;
  g.cache_guard = kRavenCacheReplacementGuard;
  return g;
}();

// Quantum-2 and Spectrum-4 (7 nm, mstflint is_icmdif_supported's is7NmSuppported): the gen6 block
// of ConnectX-7, with the cache-replacement guard at 0xf0484 / 0xf0488.
inline constexpr FlashGatewayInfo kGen6SwitchGateway = [] {
  FlashGatewayInfo g = kGen6Gateway;
  g.cache_guard = kGen6CacheReplacementGuard;
  return g;
}();

// SwitchX (and InfiniScale IV): the 4th-gen block of ConnectX-3 with the lock in CMD bit 31
// (kept set in every command), flash enable, the chip-select support register 0xf0420 [3:0]
// for 2 flashes, and the cache-replacement guard (../shared/reference/legacy-devices.md §3.2).
inline constexpr FlashGatewayInfo kSwitchXGateway{.generation = GatewayGeneration::ConnectX,
                                                  .cmd_addr = kGatewayCmdAddr,
                                                  .addr_addr = kGatewayAddrAddr,
                                                  .data_addr = kGatewayDataAddr,
                                                  .data_dwords = 4,
                                                  .lock = FlashLockKind::CmdBit31,
                                                  .needs_flash_enable = true,
                                                  .chip_select_support_addr = 0xf0420,
                                                  .flash_banks = 2,
                                                  .cache_guard = kGen4CacheReplacementGuard};

// InfiniScale / InfiniScale III: firmware in I2C EEPROMs reached through the switch's I2C master
// (in-band: vendor MAD ExtPortAccess, I2C port #1), no CR-space gateway and no lock register.
inline constexpr FlashGatewayInfo kI2cEepromGateway{.generation = GatewayGeneration::I2cEeprom,
                                                    .eeprom = kInfiniScaleEeproms};


// How config space reaches CR-space (devices/PciConfigGateway.h).
inline constexpr auto kWindow = PciConfigGateway::AddressWindow;  // config 0x58 / 0x5c
inline constexpr auto kVsec = PciConfigGateway::Vsec;

// Boot-address registers (mstflint mf_update_boot_addr) shared by adapters and switches.
inline constexpr BootAddressRegister kBootF0000{0xf0000, 8};

}  // namespace openflint::catalog

#pragma GCC diagnostic pop
