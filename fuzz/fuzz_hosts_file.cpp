// Fuzz target: ibfwmgr's hosts file (fabric/HostsFile: HOST[:PORT], ssh:[USER@]HOST[:PORT] per line).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fabric/HostsFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto hosts = openflint::parse_hosts(text, "fuzz.hosts");
  if (hosts) {
    for (const auto& h : *hosts) (void)openflint::to_string(h);
  }
  return 0;
}
