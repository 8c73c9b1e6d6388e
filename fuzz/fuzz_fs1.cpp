// Fuzz target: the FS1 parser (probe, query, verify, dump_config) on arbitrary bytes.
#include <cstddef>
#include <cstdint>

#include "image/Fs1Image.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const openflint::Bytes bytes(data, size);
  (void)openflint::fs1::probe(bytes, 0);
  (void)openflint::fs1::query(bytes, 0);
  (void)openflint::fs1::verify(bytes, 0);
  (void)openflint::fs1::dump_config(bytes, 0);
  return 0;
}
