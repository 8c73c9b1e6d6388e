// Fuzz target: ibmon's threshold file (fabric/HealthThresholds) and its NAME=VALUE form.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fabric/HealthThresholds.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto t = openflint::HealthThresholds::parse(text, openflint::HealthThresholds::defaults());
  auto base = openflint::HealthThresholds::defaults();
  (void)base.set(text.substr(0, text.find('\n')));  // the first line as a --threshold
  (void)t;
  return 0;
}
