// MadFormat: wire layout of the MADs used for in-band CR-space and register access (IBA ch. 13/14, PRM).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/BigEndianFields.h"

namespace openflint::mad {

// Every MAD is 256 bytes (no RMPP on these paths). Offsets are into the MAD, all fields big-endian.
inline constexpr std::size_t kMadSize = 256;

// Management classes.
inline constexpr std::uint8_t kClassSmpLid = 0x01;       // subnet management, LID routed
inline constexpr std::uint8_t kClassSmpDirected = 0x81;  // subnet management, directed route
inline constexpr std::uint8_t kClassVendor9 = 0x09;      // vendor range 1 (older trees)
inline constexpr std::uint8_t kClassVendorA = 0x0A;      // vendor range 1 (current)

// Methods (7 bits); the response flag is the separate top bit of the same byte.
inline constexpr std::uint8_t kMethodGet = 0x01;
inline constexpr std::uint8_t kMethodSet = 0x02;
inline constexpr std::uint8_t kResponseBit = 0x80;

// Attributes.
inline constexpr std::uint16_t kAttrSwReset = 0x12;          // vendor GMP, AttrMod = seconds
inline constexpr std::uint16_t kAttrExtPortAccess = 0x13;    // vendor GMP, AttrMod = external port
inline constexpr std::uint16_t kAttrCrAccessGmp = 0x50;      // vendor GMP ConfigSpaceAccess
inline constexpr std::uint16_t kAttrRegAccessGmp = 0x51;     // vendor GMP AccessRegister
inline constexpr std::uint16_t kAttrCrAccessSmp = 0xff50;    // SMP ConfigSpaceAccess
inline constexpr std::uint16_t kAttrRegAccessSmp = 0xff52;   // SMP AccessRegister
inline constexpr std::uint16_t kAttrSemaphoreLockSmp = 0xff53;  // SMP tools-semaphore lock (leases)

// Common MAD header (IBA 13.4.2).
inline constexpr std::size_t kOffBaseVersion = 0;
inline constexpr std::size_t kOffClass = 1;
inline constexpr std::size_t kOffClassVersion = 2;
inline constexpr std::size_t kOffMethod = 3;
inline constexpr std::size_t kOffStatus = 4;     // DR SMP: bit 15 = D (direction), [14:0] status
inline constexpr std::size_t kOffHopPointer = 6; // DR SMP only
inline constexpr std::size_t kOffHopCount = 7;   // DR SMP only
inline constexpr std::size_t kOffTid = 8;
inline constexpr std::size_t kOffAttrId = 16;
inline constexpr std::size_t kOffAttrMod = 20;

// SMP layout (IBA 14.2.1): M_Key, DR LIDs, 64-byte data, DR paths.
inline constexpr std::size_t kOffSmpMkey = 24;
inline constexpr std::size_t kOffDrSlid = 32;
inline constexpr std::size_t kOffDrDlid = 34;
inline constexpr std::size_t kOffSmpData = 64;
inline constexpr std::size_t kSmpDataSize = 64;
inline constexpr std::size_t kOffDrInitialPath = 128;
inline constexpr std::size_t kOffDrReturnPath = 192;
inline constexpr std::size_t kMaxDrHops = 63;

// Vendor range-1 GMP (classes 0x09-0x0F): the data area follows the common header directly;
// range-1 classes carry no OUI field on the wire.
inline constexpr std::size_t kOffVendorData = 24;
inline constexpr std::size_t kVendorDataSize = kMadSize - kOffVendorData;  // 232

// CR-space access payload (both GMP and SMP): an 8-byte key (VS_Key / M_Key), then dwords.
inline constexpr std::size_t kCrKeySize = 8;
inline constexpr std::size_t kGmpCrDwords = (kVendorDataSize - kCrKeySize) / 4;  // 56
inline constexpr std::size_t kSmpCrDwords = (kSmpDataSize - kCrKeySize) / 4;     // 14

// AttrMod of ConfigSpaceAccess: [15:0] address bits 15:0, [21:16] dword/record count,
// [23:22] mode, [31:24] address bits 23:16. Mode 0 = a run of dwords; mode 2 = records of
// (address, data, mask), used when the access reaches past kMode0MaxAddress.
inline constexpr std::uint32_t kMode0MaxAddress = 0x7FFFFF;
inline constexpr std::size_t kMode2RecordSize = 12;
inline constexpr std::size_t kGmpMode2Records = 18;  // 216 bytes of the 224 available
inline constexpr std::size_t kSmpMode2Records = 4;   // 48 bytes of the 56 available

[[nodiscard]] constexpr std::uint32_t cr_attr_mod_mode0(std::uint32_t address, std::size_t dwords) {
  return (address & 0xffffu) | ((static_cast<std::uint32_t>(dwords) & 0x3fu) << 16) |
         (((address >> 16) & 0xffu) << 24);
}
[[nodiscard]] constexpr std::uint32_t cr_attr_mod_mode2(std::size_t records) {
  return (2u << 22) | ((static_cast<std::uint32_t>(records) & 0x3fu) << 16);
}
[[nodiscard]] constexpr std::uint32_t attr_mod_mode(std::uint32_t attr_mod) { return (attr_mod >> 22) & 3u; }
[[nodiscard]] constexpr std::size_t attr_mod_count(std::uint32_t attr_mod) { return (attr_mod >> 16) & 0x3fu; }
[[nodiscard]] constexpr std::uint32_t attr_mod_address(std::uint32_t attr_mod) {
  return (attr_mod & 0xffffu) | (((attr_mod >> 24) & 0xffu) << 16);
}
// Whether an access of `dwords` at `address` must use mode 2.
[[nodiscard]] constexpr bool needs_mode2(std::uint32_t address, std::size_t dwords) {
  return std::uint64_t{address} + dwords * 4 > kMode0MaxAddress;
}

// ExtPortAccess (class 0x0A, attribute 0x13; legacy-devices.md §2.2): the AttrMod selects the
// device's external port; the payload is the 8-byte VS_Key, then for an I2C port three dwords
// (size in bytes, 7-bit I2C device address, memory offset) and the data. Get reads, Set writes.
inline constexpr std::uint32_t kExtPortCpu = 1;
inline constexpr std::uint32_t kExtPortI2c1 = 2;  // the EEPROM bus of InfiniScale switches
inline constexpr std::uint32_t kExtPortI2c2 = 3;
inline constexpr std::uint32_t kExtPortGpio = 4;
inline constexpr std::size_t kI2cOffSize = kCrKeySize;           // offsets into the vendor data area
inline constexpr std::size_t kI2cOffDevice = kCrKeySize + 4;
inline constexpr std::size_t kI2cOffMemory = kCrKeySize + 8;
inline constexpr std::size_t kI2cOffData = kCrKeySize + 12;
inline constexpr std::size_t kI2cMaxData = kVendorDataSize - kI2cOffData;  // 212

// MAD status (IBA 13.4.7): bit 0 busy, bit 1 redirect, [4:2] code, [14:8] class specific.
inline constexpr std::uint16_t kStatusBusy = 0x0001;
inline constexpr std::uint16_t kStatusBadVersion = 0x0004;
inline constexpr std::uint16_t kStatusMethodUnsupported = 0x0008;
inline constexpr std::uint16_t kStatusAttrUnsupported = 0x000c;  // method/attribute combination
inline constexpr std::uint16_t kStatusInvalidValue = 0x001c;     // bad attribute or modifier value
// openflint's own (not from a vendor document): an ExtPortAccess I2C transaction the addressed
// device did not acknowledge (absent, or busy in an EEPROM write cycle). The IBA busy bit, so
// any reader takes it as "retry later" (MadReply maps it to ErrorCode::Busy), plus class-specific
// bit 8 to tell the device's NACK from a responder that is itself busy.
inline constexpr std::uint16_t kStatusI2cNack = 0x0101;
// openflint's own: another failure of the I2C transaction (status code 0 without the busy bit,
// class-specific bit 9): ErrorCode::Io at the client.
inline constexpr std::uint16_t kStatusI2cFailed = 0x0200;

// "0x000c (unsupported method/attribute combination)".
[[nodiscard]] std::string describe_status(std::uint16_t status);

// Big-endian field helpers over a 256-byte MAD buffer (core/BigEndianFields.h).
using be::get16;
using be::get32;
using be::get64;
using be::put16;
using be::put32;
using be::put64;

}  // namespace openflint::mad
