// EchoedName: a user-given name as a one-line message repeats it — quoted, and cut when long.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace openflint {

// Names longer than this are cut in messages: a 100,000-character argument must not come back
// as a 100,000-character error line.
inline constexpr std::size_t kMaxEchoedNameBytes = 80;

// "'mlx5_0'"; a longer name: its first kMaxEchoedNameBytes bytes (never ending inside a UTF-8
// character) then "…' (N bytes)".
[[nodiscard]] inline std::string echoed_name(std::string_view name) {
  if (name.size() <= kMaxEchoedNameBytes) return "'" + std::string(name) + "'";
  std::size_t cut = kMaxEchoedNameBytes;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xc0) == 0x80) --cut;  // a continuation byte
  return "'" + std::string(name.substr(0, cut)) + "\u2026' (" + std::to_string(name.size()) + " bytes)";
}

}  // namespace openflint
