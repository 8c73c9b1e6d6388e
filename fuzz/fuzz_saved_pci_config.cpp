// Fuzz target: a configuration space saved by `mst save` (fwops/access/SavedPciConfig: key lines, lspci-style rows).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fwops/access/SavedPciConfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto saved = openflint::parse_saved_pci_config(text, "fuzz");
  if (saved) {  // what parses formats back to a file that parses to the same bytes
    auto again = openflint::parse_saved_pci_config(openflint::format_saved_pci_config(*saved), "again");
    if (!again || again->bytes != saved->bytes || again->address != saved->address) std::abort();
  }
  return 0;
}
