// CrSpaceLayout: a device family's CR-space as catalog data — its size, the ranges a register dump
// covers and the registers it names (with their fields and whether reading them has a side effect).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace openflint {

// A run of consecutive dwords a register dump reads. `full_only`: only with `mst dump --full`.
struct DumpRange {
  std::uint32_t first = 0;   // byte address, dword aligned
  std::uint32_t dwords = 0;
  std::string_view name;     // what lives there, for the docs and --json
  bool full_only = false;
};

// What reading a register does besides returning its value.
enum class ReadEffect : std::uint8_t {
  None,
  // A read is a test-and-set: reading it takes a lock (a hardware or flash semaphore, the flash
  // gateway's CMD lock bit). Tools that must not disturb the device never read it.
  TakesLock,
};

// Bits [msb:lsb] of a register (PRM style, within the host-order dword).
struct RegisterField {
  std::string_view name;
  std::uint8_t msb = 31;
  std::uint8_t lsb = 0;
};

// A named register of a family's table (the flash gateway, hw id and boot-address registers are
// derived from the record's other data instead: devices/CrRegisterMap.h).
struct CrRegisterSpec {
  std::uint32_t address = 0;
  std::string_view name;
  ReadEffect read_effect = ReadEffect::None;
  std::span<const RegisterField> fields;
};

struct CrSpaceLayout {
  // Bytes of CR-space from address 0; accesses at or past it are refused. 0 = not known.
  std::uint32_t size = 0;
  std::span<const DumpRange> dump_ranges;
  std::span<const CrRegisterSpec> registers;
};

}  // namespace openflint
