// CatalogCrSpace: per-family CR-space layouts (size, register-dump ranges, named registers) that
// the device records share (internal catalog data).
//
// Ranges are our own choice, from what the simulator models and the registers documented in
// ../shared/reference (protocols.md, mft-internals.md §3-4): the hw id and boot-address page
// around 0xf0014, the semaphores below the flash gateway, the gateway block at 0xf0400 and, on
// HCAs, the start of the tools scratchpad TLV chain at 0x18. `full_only` ranges widen them to
// whole pages for `mst dump --full`. The gateway CMD/ADDR/DATA, the flash semaphore, the hw id
// and the boot-address register are named from the record's gateway and boot data
// (devices/CrRegisterMap.h); the tables below add only what the record does not say.
#pragma once

#include "devices/CrSpaceLayout.h"

namespace openflint::catalog {

inline constexpr std::uint32_t kCrSpace1MiB = 0x100000;    // InfiniHost .. ConnectX-3, SwitchX
inline constexpr std::uint32_t kCrSpace16MiB = 0x1000000;  // Connect-IB / Switch-IB and newer

inline constexpr RegisterField kSemaphoreFields[] = {{"taken", 31, 0}};
inline constexpr RegisterField kEnableFields[] = {{"enable", 0, 0}};
inline constexpr RegisterField kTlvSignatureFields[] = {{"signature", 31, 0}};

// --- InfiniHost, InfiniHost III Ex/Lx, InfiniScale, InfiniScale III ---------------------------
inline constexpr DumpRange kInfiniHostRanges[] = {
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff"},
    {0xf0380, 32, "semaphores 0xf0380-0xf03ff (the 0xf03fc flash semaphore is not read)"},
    {0xf0400, 8, "SPI flash gateway 0xf0400-0xf041f (InfiniHost III Lx)"},
    {0xf0000, 4096, "0xf0000-0xf3fff", true},
};
inline constexpr CrRegisterSpec kInfiniHostRegisters[] = {
    {0xf03fc, "flash_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
};
inline constexpr CrSpaceLayout kInfiniHostCrSpace{kCrSpace1MiB, kInfiniHostRanges, kInfiniHostRegisters};

// --- InfiniScale (gen 1) and InfiniScale III: the hw id sits at 0x3014 / 0x60014, not 0xf0014
// (docs/legacy-devices.md §InfiniScale); the firmware is in I2C EEPROMs, so no flash gateway.
// MT47396.crb (MFT 2.7.1) names readable blocks from 0x010000 on; we dump the hw-id page only.
inline constexpr DumpRange kInfiniScale3Ranges[] = {
    {0x60000, 64, "hw id page 0x60000-0x600ff (hw id at 0x60014)"},
    {0x60000, 4096, "0x60000-0x63fff", true},
};
inline constexpr CrSpaceLayout kInfiniScale3CrSpace{kCrSpace1MiB, kInfiniScale3Ranges, {}};
inline constexpr DumpRange kInfiniScaleRanges[] = {
    {0x3000, 64, "hw id page 0x3000-0x30ff (hw id at 0x3014)"},
    {0x0, 4096, "0x0-0x3fff", true},
};
inline constexpr CrSpaceLayout kInfiniScaleCrSpace{kCrSpace1MiB, kInfiniScaleRanges, {}};

// --- 4th gen: ConnectX, ConnectX-2, ConnectX-3 (Pro), SwitchX ---------------------------------
// Hardware semaphores 0xf03a0 / 0xf03bc (mft-internals §4.5, ConnectX-3): reading takes them.
inline constexpr CrRegisterSpec kGen4Registers[] = {
    {0xf03a0, "hw_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
    {0xf03bc, "hw_semaphore_main", ReadEffect::TakesLock, kSemaphoreFields},
    {0xf03fc, "flash_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
};
inline constexpr DumpRange kGen4Ranges[] = {
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff (boot address 0xf0000)"},
    {0xf0380, 32, "semaphores 0xf0380-0xf03ff (0xf03a0, 0xf03bc, 0xf03fc are not read)"},
    {0xf0400, 8, "flash gateway CMD 0xf0400, ADDR 0xf0404, DATA 0xf0410-0xf041c"},
    {0xf0000, 4096, "0xf0000-0xf3fff", true},
};
inline constexpr CrSpaceLayout kGen4CrSpace{kCrSpace1MiB, kGen4Ranges, kGen4Registers};

// SwitchX: the gen4 block, but reading CMD 0xf0400 takes the flash lock (bit 31), so a dump
// skips it; the cache-replacement guard 0xf0408 / 0xf040c and the chip-select support register
// 0xf0420 (../shared/reference/legacy-devices.md §3.2); running FW version at 0x60040.
inline constexpr CrRegisterSpec kSwitchXRegisters[] = {
    {0xf03a0, "hw_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
    {0xf03bc, "hw_semaphore_main", ReadEffect::TakesLock, kSemaphoreFields},
    {0xf0408, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf040c, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
    {0xf0420, "flash_gw.chip_select_support", ReadEffect::None, {}},
    {0x60040, "running_fw_version", ReadEffect::None, {}},
};
inline constexpr DumpRange kSwitchXRanges[] = {
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff (boot address 0xf0000)"},
    {0xf0380, 32, "semaphores 0xf0380-0xf03ff (0xf03a0, 0xf03bc are not read)"},
    {0xf0404, 8, "flash gateway 0xf0404-0xf0423 (CMD 0xf0400 is not read: reading locks)"},
    {0x60040, 2, "running FW version 0x60040-0x60047"},
    {0xf0000, 4096, "0xf0000-0xf3fff", true},
};
inline constexpr CrSpaceLayout kSwitchXCrSpace{kCrSpace1MiB, kSwitchXRanges, kSwitchXRegisters};

// --- 5th/6th gen adapters ---------------------------------------------------------------------
// Gen5 gateway extras (docs/inband.md): cache-replacement offset/command (both 0 = no firmware
// flash access pending) and the cache-replacement enable bit at 0xf0420 [0].
// (HCAs: the tools scratchpad TLV chain starts at 0x18; mft-internals §3.)
inline constexpr CrRegisterSpec kConnectIbRegisters[] = {
    {0x18, "tools_tlv_signature", ReadEffect::None, kTlvSignatureFields},
    {0xf0408, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf040c, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
    {0xf0420, "flash_gw.cache_replacement_enable", ReadEffect::None, kEnableFields},
};
inline constexpr DumpRange kConnectIbRanges[] = {
    {0x0, 16, "tools scratchpad 0x0-0x3f (the TLV chain starts at 0x18)"},
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0x0, 16384, "0x0-0xffff", true},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
};
inline constexpr CrSpaceLayout kConnectIbCrSpace{kCrSpace16MiB, kConnectIbRanges, kConnectIbRegisters};

// ConnectX-4 / 4 Lx: hardware semaphore 0xe250c (mft-internals §4.5).
inline constexpr CrRegisterSpec kConnectX4Registers[] = {
    {0x18, "tools_tlv_signature", ReadEffect::None, kTlvSignatureFields},
    {0xe250c, "hw_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
    {0xf0408, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf040c, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
    {0xf0420, "flash_gw.cache_replacement_enable", ReadEffect::None, kEnableFields},
};
inline constexpr DumpRange kConnectX4Ranges[] = {
    {0x0, 16, "tools scratchpad 0x0-0x3f (the TLV chain starts at 0x18)"},
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0x0, 16384, "0x0-0xffff", true},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
    {0xe2500, 4, "hardware semaphore block 0xe2500-0xe250f (0xe250c is not read)"},
};
inline constexpr CrSpaceLayout kConnectX4CrSpace{kCrSpace16MiB, kConnectX4Ranges, kConnectX4Registers};

// ConnectX-5 / ConnectX-6: hardware semaphore 0xe74e0.
inline constexpr CrRegisterSpec kConnectX5Registers[] = {
    {0x18, "tools_tlv_signature", ReadEffect::None, kTlvSignatureFields},
    {0xe74e0, "hw_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
    {0xf0408, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf040c, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
    {0xf0420, "flash_gw.cache_replacement_enable", ReadEffect::None, kEnableFields},
};
inline constexpr DumpRange kConnectX5Ranges[] = {
    {0x0, 16, "tools scratchpad 0x0-0x3f (the TLV chain starts at 0x18)"},
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0x0, 16384, "0x0-0xffff", true},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
    {0xe74e0, 4, "hardware semaphore block 0xe74e0-0xe74ef (0xe74e0 is not read)"},
};
inline constexpr CrSpaceLayout kConnectX5CrSpace{kCrSpace16MiB, kConnectX5Ranges, kConnectX5Registers};

// ConnectX-7 (gen6 gateway: ADDR at 0xf0420, so no cache-replacement enable there): hardware
// semaphore 0xe5660, boot address 0xf2000.
inline constexpr CrRegisterSpec kConnectX7Registers[] = {
    {0x18, "tools_tlv_signature", ReadEffect::None, kTlvSignatureFields},
    {0xe5660, "hw_semaphore", ReadEffect::TakesLock, kSemaphoreFields},
};
inline constexpr DumpRange kConnectX7Ranges[] = {
    {0x0, 16, "tools scratchpad 0x0-0x3f (the TLV chain starts at 0x18)"},
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0x0, 16384, "0x0-0xffff", true},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
    {0xe5660, 4, "hardware semaphore block 0xe5660-0xe566f (0xe5660 is not read)"},
    {0xf2000, 4, "boot address 0xf2000"},
};
inline constexpr CrSpaceLayout kConnectX7CrSpace{kCrSpace16MiB, kConnectX7Ranges, kConnectX7Registers};

// --- 5th gen switches: Switch-IB (2), Spectrum, Spectrum-2 ------------------------------------
inline constexpr CrRegisterSpec kSwitchGen5Registers[] = {
    {0xf0408, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf040c, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
    {0xf0420, "flash_gw.cache_replacement_enable", ReadEffect::None, kEnableFields},
};
inline constexpr DumpRange kSwitchGen5Ranges[] = {
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
};
inline constexpr CrSpaceLayout kSwitchGen5CrSpace{kCrSpace16MiB, kSwitchGen5Ranges, kSwitchGen5Registers};

// --- Quantum, Spectrum-3 (16 nm, gen5 gateway with 4-byte addresses) --------------------------
// The cache-replacement guard moved to 0xf0440 / 0xf0448 (mstflint 4.21 CACHE_REP_*_RAVEN); the
// boot address 0xf0080 sits in the hw id page; 0xf0c28 [2] is the reset-flash-on-warm-reboot bit
// mstflint sets after a Spectrum-3 burn (mf_set_reset_flash_on_warm_reboot).
inline constexpr CrRegisterSpec kSwitchRavenRegisters[] = {
    {0xf0440, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf0448, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
    {0xf0c28, "power_boot_partial_reset", ReadEffect::None, {}},
};
inline constexpr DumpRange kSwitchRavenRanges[] = {
    {0xf0000, 64, "hw id and boot page 0xf0000-0xf00ff (boot address 0xf0080)"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0xf0440, 4, "cache-replacement guard 0xf0440-0xf044f"},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
};
inline constexpr CrSpaceLayout kSwitchRavenCrSpace{kCrSpace16MiB, kSwitchRavenRanges, kSwitchRavenRegisters};

// --- Quantum-2, Spectrum-4 (7 nm: the gen6 gateway of ConnectX-7) -----------------------------
// ADDR at 0xf0420, the cache-replacement guard at 0xf0484 / 0xf0488, the boot address 0xf1000
// (mstflint 4.21 mf_update_boot_addr).
inline constexpr CrRegisterSpec kSwitchGen6Registers[] = {
    {0xf0484, "flash_gw.cache_replacement_offset", ReadEffect::None, {}},
    {0xf0488, "flash_gw.cache_replacement_cmd", ReadEffect::None, {}},
};
inline constexpr DumpRange kSwitchGen6Ranges[] = {
    {0xf0000, 64, "hw id page 0xf0000-0xf00ff"},
    {0xf0400, 12, "flash gateway 0xf0400-0xf042f (CMD 0xf0400 is not read: reading locks)"},
    {0xf0480, 4, "cache-replacement guard 0xf0480-0xf048f"},
    {0xf1000, 4, "boot address 0xf1000"},
    {0xf0000, 16384, "0xf0000-0xfffff", true},
};
inline constexpr CrSpaceLayout kSwitchGen6CrSpace{kCrSpace16MiB, kSwitchGen6Ranges, kSwitchGen6Registers};

}  // namespace openflint::catalog
