// Fuzz target: the FS2 parser (probe, query, verify, dump_config) on arbitrary bytes.
#include <cstddef>
#include <cstdint>

#include "image/Fs2Image.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const openflint::Bytes bytes(data, size);
  (void)openflint::fs2::probe(bytes, 0);
  (void)openflint::fs2::query(bytes, 0);
  (void)openflint::fs2::verify(bytes, 0);
  (void)openflint::fs2::dump_config(bytes, 0);
  return 0;
}
