// Fuzz target: ibadm.conf (fabric/IbadmConfig over core/KeyValueText: KEY = VALUE lines, known keys only).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fabric/IbadmConfig.h"

// A config that parses keeps its invariants: every port in range (by type), paths absolute once
// resolved against the source's folder.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = openflint::parse_ibadm_config(text, "/etc/ibadm.conf");
  if (config) {
    if (!config->run_dir.empty() && config->run_dir.front() != '/') std::abort();
    if (config->name_server_address) (void)openflint::to_string(*config->name_server_address);
  } else if (config.error().code() != openflint::ErrorCode::InvalidArgument) {
    std::abort();  // text that does not parse is a usage error, nothing else
  }
  return 0;
}
