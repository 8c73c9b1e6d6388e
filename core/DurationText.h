// DurationText: a wait as people read it in an error message ("2.1 s", "350 ms").
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace openflint {

// Whole milliseconds under a second, else seconds with one decimal.
[[nodiscard]] inline std::string seconds_text(std::chrono::steady_clock::duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  if (ms < 1000) return std::to_string(ms) + " ms";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms) / 1000.0);
  return text;
}

}  // namespace openflint
