// Fuzz target: the FS4 parser (probe, query, verify, dump_config, the signature sections) on arbitrary bytes.
#include <cstddef>
#include <cstdint>

#include "image/Fs4Image.h"
#include "image/Fs4Signature.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const openflint::Bytes bytes(data, size);
  (void)openflint::fs4::probe(bytes, 0);
  (void)openflint::fs4::query(bytes, 0);
  (void)openflint::fs4::verify(bytes, 0);
  (void)openflint::fs4::dump_config(bytes, 0);
  (void)openflint::fs4::read_signatures(bytes);
  return 0;
}
