// KeyValueText: "key = value" configuration lines ('#' comments), line-numbered and strict.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// One setting and the line it came from (1-based).
struct KeyValueLine {
  std::string key;
  std::string value;
  std::size_t line = 0;
};

// Each non-blank line, once its '#' comment and surrounding blanks are dropped, is KEY = VALUE:
// KEY of lower-case letters, digits and '_' (starting with a letter), VALUE not empty, printable
// ASCII (tabs and spaces inside kept). InvalidArgument "SOURCE:LINE: why" for the first line that
// is not (no '=', a bad key, an empty value, a control character). Keys are not checked against
// any set here: the caller knows its keys and refuses the others with line_error().
[[nodiscard]] Result<std::vector<KeyValueLine>> parse_key_value_text(std::string_view text, std::string_view source);

// InvalidArgument "SOURCE:LINE: why".
[[nodiscard]] Error line_error(std::string_view source, std::size_t line, std::string_view why);

}  // namespace openflint
