// Fuzz target: the IBDM topology file parser (fabric/Topology) and its writer's round trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fabric/Topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto topo = openflint::Topology::parse(text);
  if (!topo) return 0;
  // A file that parses writes back to one that parses to the same cables (Topology::to_text).
  auto again = openflint::Topology::parse(topo->to_text());
  if (!again || again->cables().size() != topo->cables().size()) std::abort();
  for (const auto& c : topo->cables()) {
    if (again->peer(c.a) != std::optional(c.b)) std::abort();
  }
  return 0;
}
