// Fuzz target: the name map parser (fabric/SystemNameMap) and the name rule on arbitrary NodeDescriptions.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fabric/SystemNameMap.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto map = openflint::SystemNameMap::parse_hosts(text);
  openflint::FabricNode node;
  // The same bytes as a node's description (64 bytes on the wire; longer here on purpose).
  node.description = std::string(text.substr(0, 256));
  node.guid = size;
  const auto loc = map ? map->locate(node) : openflint::SystemNameMap{}.locate(node);
  if (loc.source == openflint::SystemLocation::Source::None && !loc.system.empty()) __builtin_trap();
  return 0;
}
