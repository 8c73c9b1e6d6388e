// Fuzz target: the bus-server request parser (parse_bus_request, G and X included) and reply parsers on arbitrary text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "mtcr/remote/BusProtocol.h"

// Input: the message text as it arrives between NULs (NULs inside must be refused, not crash).
// A request that parses must survive format -> parse unchanged. The same bytes also go through
// the client's reply parsers, with a block size taken from the input's length.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openflint;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto request = parse_bus_request(text)) {
    auto again = parse_bus_request(format_bus_request(*request));
    if (!again || !(*again == *request)) std::abort();  // the formatter and the parser disagree
  }
  (void)parse_read_reply(text);
  (void)parse_block_reply(text, size % (kBusMaxBlockBytes + 1));
  // openflint's G answer must survive parse -> format -> parse unchanged too.
  if (auto reply = parse_register_reply(text)) {
    auto again = parse_register_reply(format_register_reply(*reply));
    if (!again || !(*again == *reply)) std::abort();
  }
  // openflint's X answers (the plan's and the reset's) likewise.
  for (const bool run : {false, true})
    if (auto reply = parse_reset_reply(text, run)) {
      auto again = parse_reset_reply(format_reset_reply(*reply), run);
      if (!again || !(*again == *reply)) std::abort();
    }
  return 0;
}
