// NumberText: from_chars over the digits after an optional 0x, then the bound.
#include "core/NumberText.h"

#include <charconv>
#include <string>

namespace openflint {

Result<std::uint64_t> parse_unsigned(std::string_view text, std::uint64_t max, std::string_view what) {
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    return make_error(ErrorCode::InvalidArgument, std::string(what) + " '" + std::string(text) + "' is not a number");
  if (value > max)
    return make_error(ErrorCode::InvalidArgument,
                      std::string(what) + " '" + std::string(text) + "' is out of range (max " + std::to_string(max) + ")");
  return value;
}

}  // namespace openflint
