// SimStateFile: the fields of a simulated device's state.json, written and strictly parsed back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "sim/BootState.h"
#include "sim/SimDevice.h"
#include "sim/SimFaults.h"

namespace openflint::sim {

// Everything a saved device holds besides its flash array (flash.bin). The file is meant to be
// written by save_state, but people edit it by hand and disks corrupt it: parse() checks the
// JSON type and range of every field and reports the first bad one as one InvalidImage error
// naming it ("boot.running.fw_version[1]: must be an unsigned integer of at most 65535"); it
// never throws. Absent (or null) fields keep the defaults below: older files lack some.
struct SimStateFile {
  // state.json is a few kilobytes; a larger file is not one of ours (and is not read whole).
  static constexpr std::size_t kMaxBytes = 16u << 20;

  std::string model;       // catalog sim model ("connectx4")
  std::string flash_chip;  // catalog flash chip name
  bool powered = true;
  bool flash_locked = false;
  std::uint32_t temperature_c = 45;  // MTMP sensor 0
  SimFaults faults;
  SimCounters counters;
  std::optional<BootState> boot;  // absent in older files: the boot ROM runs on load
  // The firmware tracer's owner, mask, level, configuration and status (sim/FirmwareTracer);
  // absent in older files and on devices without a tracer: the defaults.
  std::optional<FirmwareTracerSettings> tracer;
  std::map<std::uint32_t, std::uint32_t> registers;  // CR-space storage, address → value
  // NV configuration (sim/NvConfigStore): items by type dword, stored and in effect since boot.
  std::map<std::uint32_t, std::vector<std::uint8_t>> nv_stored;
  std::map<std::uint32_t, std::vector<std::uint8_t>> nv_current;

  [[nodiscard]] std::string to_json() const;
  [[nodiscard]] static Result<SimStateFile> parse(std::string_view text);
};

}  // namespace openflint::sim
