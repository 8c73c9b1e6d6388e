// Fuzz target: the MFA2 package reader (fingerprint, TLVs, descriptors, xz component block) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "image/Mfa2Package.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto package = openflint::Mfa2Package::from_bytes(std::vector<std::uint8_t>(data, data + size));
  if (!package) return 0;
  for (const auto& device : package->devices()) {
    // Bound the work per input: real components are MiBs, fuzzed ones need not be.
    auto component = package->firmware(device, 1u << 20);
    if (!component || (*component)->cb_offset > (1u << 24)) continue;
    (void)package->extract(**component, [](openflint::Bytes) -> openflint::Result<void> { return {}; });
  }
  return 0;
}
