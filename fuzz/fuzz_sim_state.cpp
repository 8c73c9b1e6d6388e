// Fuzz target: the simulated device's state.json parser (SimStateFile), and writing back what it read.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/SimStateFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto state = openflint::sim::SimStateFile::parse(text);
  if (!state) return 0;
  // What we accepted we must be able to write and read back.
  if (!openflint::sim::SimStateFile::parse(state->to_json()).has_value()) std::abort();
  return 0;
}
