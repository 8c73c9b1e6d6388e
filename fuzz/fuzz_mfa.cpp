// Fuzz target: the MFA archive reader (header, CRC, MAP, TOC, xz DATA) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "image/MfaArchive.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto archive = openflint::MfaArchive::from_bytes(std::vector<std::uint8_t>(data, data + size));
  if (!archive) return 0;
  for (const auto& board : archive->boards()) {
    const auto* fw = board.firmware();
    // Bound the work per input: real boards are tens of MiB, fuzzed ones need not be.
    if (fw == nullptr || fw->data_size > (1u << 20) || fw->data_offset > (1u << 24)) continue;
    (void)archive->extract(board, [](openflint::Bytes) -> openflint::Result<void> { return {}; });
  }
  return 0;
}
