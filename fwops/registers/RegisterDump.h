// RegisterDump: reads a device's CR-space over the ranges its catalog family lists, never reading a
// register whose read has a side effect (semaphores, the flash gateway lock): safe during a burn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Result.h"
#include "devices/CrRegisterMap.h"
#include "devices/DeviceInfo.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

struct RegisterDumpOptions {
  bool full = false;  // also the family's full_only ranges
};

struct DumpedWord {
  std::uint32_t address = 0;
  std::uint32_t value = 0;
};

// A dword inside a dumped range that was not read, and why.
struct SkippedRegister {
  std::uint32_t address = 0;
  std::string name;
  std::string reason;
};

struct RegisterDump {
  std::vector<DumpRange> ranges;         // the catalog ranges this dump covered, in catalog order
  std::vector<DumpedWord> words;         // every dword read, ascending, each address once
  std::vector<SkippedRegister> skipped;  // ascending
  std::vector<CrRegister> registers;     // the family's named registers (cr_registers(info))
  std::uint64_t transactions = 0;        // read_block calls made
};

// Reads `info`'s dump ranges (overlapping ranges are read once) through `access`, in blocks of at
// most access.max_block_dwords(), split around every register with ReadEffect::TakesLock (those
// are listed in `skipped`, never read). Errors: NotSupported when the catalog has no ranges for
// the device; a failed read as the transport reports it, with the address as context.
[[nodiscard]] Result<RegisterDump> dump_registers(RegisterAccess& access, const DeviceInfo& info,
                                                  const RegisterDumpOptions& options = {});

}  // namespace openflint
