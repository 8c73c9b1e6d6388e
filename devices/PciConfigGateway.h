// PciConfigGateway: how a device's PCI configuration space reaches its CR-space (catalog data).
#pragma once

#include <cstdint>
#include <string_view>

namespace openflint {

// Facts: protocols.md "PCI configuration space". A catalog record names its generation; code
// reads info.pci_config_gateway instead of asking which ASIC it is.
enum class PciConfigGateway : std::uint8_t {
  // No known way through config space (kept as the default so a record that forgets to say
  // fails the catalog self-check instead of silently picking a generation).
  None,
  // Pre-capability parts (InfiniHost, InfiniHost III, ConnectX .. ConnectX-3 Pro, SwitchX,
  // InfiniScale): write the CR-space address to config 0x58, then read or write config 0x5c.
  AddressWindow,
  // Connect-IB, ConnectX-4 and newer, Switch-IB/Spectrum and newer: the vendor-specific
  // capability (id 0x09, vsec type 0) with CTRL/COUNTER/SEMAPHORE/ADDR/DATA registers.
  Vsec,
};

[[nodiscard]] constexpr std::string_view to_string(PciConfigGateway g) {
  switch (g) {
    case PciConfigGateway::None: return "none";
    case PciConfigGateway::AddressWindow: return "address-window";
    case PciConfigGateway::Vsec: return "vsec";
  }
  return "unknown";
}

// The pre-capability window's registers (config-space byte offsets).
inline constexpr std::uint32_t kPciWindowAddrOffset = 0x58;
inline constexpr std::uint32_t kPciWindowDataOffset = 0x5c;

// The VSEC gateway: capability id, vsec type, and register offsets from the capability base.
inline constexpr std::uint8_t kPciVendorCapabilityId = 0x09;
inline constexpr std::uint8_t kPciVsecTypeFunctional = 0;
inline constexpr std::uint32_t kVsecCtrl = 0x4;       // [15:0] space, [31:29] status
inline constexpr std::uint32_t kVsecCounter = 0x8;    // increments on every read
inline constexpr std::uint32_t kVsecSemaphore = 0xc;  // ticket owns it; 0 releases
inline constexpr std::uint32_t kVsecAddr = 0x10;      // [29:0] address, bit 31 flag
inline constexpr std::uint32_t kVsecData = 0x14;
inline constexpr std::uint32_t kVsecFlagBit = 1u << 31;

// Address spaces selected through CTRL[15:0].
enum class VsecSpace : std::uint16_t {
  IcmdExt = 0x1,
  CrSpace = 0x2,
  Icmd = 0x3,
  NodnicInitSeg = 0x4,
  ExpansionRom = 0x5,
  NdCrSpace = 0x6,
  ScanCrSpace = 0x7,
  Semaphore = 0xa,
  Recovery = 0xc,
  Mac = 0xf,
};

// ICMD, the running firmware's command interface, in the VSEC's ICMD address space. CTRL:
// [31:16] opcode, [15:8] status (0 ok, 1 bad opcode, 2 bad command, 3 operational error, 4 bad
// parameter, 5 busy, ...), [0] busy (the host sets it to run the command, the firmware clears it).
// Mailbox dwords are the big-endian bytes of the command, in and out.
inline constexpr std::uint32_t kIcmdCtrl = 0x0;
inline constexpr std::uint32_t kIcmdMailboxSize = 0x1000;  // read-only: the mailbox's bytes
inline constexpr std::uint32_t kIcmdSyndrome = 0x1008;
inline constexpr std::uint32_t kIcmdMailbox = 0x100000;
inline constexpr std::uint32_t kIcmdBusyBit = 1u << 0;
// The semaphores of the SEMAPHORE space (mft-internals §4.5, tools resources 0 and 1): write a
// nonzero ticket, read it back, equal = held; writing 0 frees it, whoever holds it. ICMD guards
// the ICMD mailbox; flash programming is what mstflint holds around firmware flash access
// (MFBA/MFBE, a component update). openflint takes only the ICMD one.
inline constexpr std::uint32_t kIcmdSemaphore = 0x0;
inline constexpr std::uint32_t kFlashProgrammingSemaphore = 0x10;
// Opcodes.
inline constexpr std::uint16_t kIcmdAccessRegister = 0x9001;  // the operation + register TLVs

}  // namespace openflint
