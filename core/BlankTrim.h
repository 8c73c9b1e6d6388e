// BlankTrim: a line's text without the blanks around it, for every line-oriented file openflint
// reads (INI, key = value, hosts, name maps, thresholds).
#pragma once

#include <string_view>

namespace openflint {

// `s` without leading and trailing characters of `blanks` (spaces, tabs and the CR of CRLF files).
inline std::string_view trim_blanks(std::string_view s, std::string_view blanks = " \t\r") {
  const auto first = s.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

}  // namespace openflint
