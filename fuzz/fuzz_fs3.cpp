// Fuzz target: the FS3 parser (probe, query, verify, dump_config) on arbitrary bytes.
#include <cstddef>
#include <cstdint>

#include "image/Fs3Image.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const openflint::Bytes bytes(data, size);
  (void)openflint::fs3::probe(bytes, 0);
  (void)openflint::fs3::query(bytes, 0);
  (void)openflint::fs3::verify(bytes, 0);
  (void)openflint::fs3::dump_config(bytes, 0);
  return 0;
}
