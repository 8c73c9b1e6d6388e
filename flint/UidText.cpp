// UidText: parsing hex GUIDs/MACs from the command line.
#include "flint/UidText.h"

#include <algorithm>

namespace openflint::flint {

Result<std::uint64_t> parse_uid(std::string text, int bits, const std::string& what) {
  const std::string original = text;
  if (text.starts_with("0x") || text.starts_with("0X")) text.erase(0, 2);
  std::erase(text, ':');
  const bool hex_only = !text.empty() && text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
  if (!hex_only || text.size() > static_cast<std::size_t>(bits / 4))
    return make_error(ErrorCode::InvalidArgument,
                      what + " '" + original + "' is not a hex number of at most " + std::to_string(bits) + " bits");
  std::uint64_t value = 0;
  for (const char c : text) {
    const int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    value = value << 4 | static_cast<std::uint64_t>(digit);
  }
  return value;
}

}  // namespace openflint::flint
