// Fuzz target: the name server's request parser (mtcr/remote/NameProtocol) and the client's entry parser.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "mtcr/remote/NameProtocol.h"

// A request that parses must survive format -> parse unchanged; so must an entry.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openflint;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto request = parse_name_request(text)) {
    auto again = parse_name_request(format_name_request(*request));
    if (!again || !(*again == *request)) std::abort();
  }
  if (auto entry = parse_name_entry(text)) {
    auto again = parse_name_entry(format_name_entry(*entry));
    if (!again || !(*again == *entry)) std::abort();
  }
  return 0;
}
