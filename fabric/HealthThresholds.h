// HealthThresholds: what a fabric health pass (ibmon) flags — counter limits, temperature, port state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// A counter, temperature or state is fine up to and including its limit; above it is a finding.
// Counters are compared as read on the first pass and as the increase since the previous pass
// on later ones (ibmon --watch). A metric without a limit ("off") is not checked.
struct HealthThresholds {
  std::map<std::string, std::optional<std::uint64_t>> counter_max;  // every PortCounters error counter
  std::optional<std::uint32_t> temperature_max_c;                  // MTMP sensor 0, degrees C
  bool port_state = true;  // a cabled port whose logical state is not Active is a finding
  // A port whose busier direction carries more than this percent of its link's data rate
  // (between two passes: ibmon --watch); off by default.
  std::optional<std::uint32_t> utilisation_max_pct;

  static constexpr std::uint32_t kDefaultTemperatureC = 85;

  // Every error counter 0, temperature 85 C, port state on, utilisation off.
  [[nodiscard]] static HealthThresholds defaults();

  // A threshold file over `base`: one `NAME VALUE` per line, `#` comments, blank lines. NAME is a
  // PortCounters error counter (as port_error_counter_names() spells it), `temperature` (degrees
  // C), `utilisation` (percent of the link's data rate, 0-100) or `port-state`; VALUE a decimal
  // number, or `off` (`on` for port-state). An unknown name, a bad value or a name given twice is
  // InvalidArgument "line N: ...".
  [[nodiscard]] static Result<HealthThresholds> parse(std::string_view text, HealthThresholds base);

  // One `NAME=VALUE` from the command line (same names and values as the file).
  [[nodiscard]] Result<void> set(std::string_view assignment);

  // The defaults, then the threshold file `file` (empty: none) over them, then each `NAME=VALUE`
  // of `assignments` over that: what ibmon -T FILE --threshold ... and mst web --fabric take. A
  // file that does not parse is InvalidArgument "threshold file FILE: line N: ...".
  [[nodiscard]] static Result<HealthThresholds> load(const std::string& file, const std::vector<std::string>& assignments);

 private:
  [[nodiscard]] Result<void> set(std::string_view name, std::string_view value);
};

}  // namespace openflint
