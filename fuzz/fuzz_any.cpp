// Fuzz target: format detection and the facade (query/verify/dump_config) on arbitrary bytes.
#include <cstddef>
#include <cstdint>

#include "image/FirmwareImage.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const openflint::Bytes bytes(data, size);
  (void)openflint::query_image(bytes);
  (void)openflint::verify_image(bytes);
  (void)openflint::dump_config(bytes);
  return 0;
}
