// Fuzz target: the PLDM package reader (DSP0267 header, records, descriptors, components, checksums) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "image/Crc32.h"
#include "image/PldmPackage.h"

namespace {

void parse(std::vector<std::uint8_t> bytes) {
  auto package = openflint::PldmPackage::from_bytes(std::move(bytes));
  if (!package) return;
  for (const auto& record : package->records()) {
    if (record.downstream || record.psid.empty()) continue;
    auto found = package->find_record(record.psid);
    if (!found) continue;
    auto component = package->firmware(**found, 1u << 20);  // bound the work per input
    if (!component) continue;
    (void)package->extract(**component, [](openflint::Bytes) -> openflint::Result<void> { return {}; });
  }
}

void store_le32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  parse(bytes);
  // Again with the checksums made right, so mutations reach the checks behind the header CRC32
  // (format revision 4, DSP0267 1.3, adds the payload CRC32 after it).
  if (size < 40) return 0;
  const std::size_t header_size = bytes[17] | (bytes[18] << 8);
  const std::size_t checksums = bytes[16] >= 4 ? 8 : 4;
  if (header_size < 36 + checksums || header_size > size) return 0;
  std::uint8_t* crc_at = bytes.data() + header_size - checksums;
  store_le32(crc_at, openflint::crc32(openflint::Bytes(bytes).first(header_size - checksums)));
  if (checksums == 8) store_le32(crc_at + 4, openflint::crc32(openflint::Bytes(bytes).subspan(header_size)));
  parse(std::move(bytes));
  return 0;
}
