// Progress: a one-line percentage on stderr for long device operations, only on a terminal.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "flint/Options.h"

namespace openflint::flint {

// Empty (no output) with --json, --silent or when stderr is not a terminal, so scripts and logs stay quiet.
inline std::function<void(std::uint64_t, std::uint64_t)> progress_line(const Options& options, std::string label) {
  if (options.json || options.silent || ::isatty(STDERR_FILENO) == 0) return {};
  return [label = std::move(label), last = -1](std::uint64_t done, std::uint64_t total) mutable {
    const int pct = total == 0 ? 100 : static_cast<int>(done * 100 / total);
    if (pct == last) return;
    last = pct;
    std::fprintf(stderr, "\r%s: %3d%%", label.c_str(), pct);
    if (pct >= 100) std::fputc('\n', stderr);
  };
}

}  // namespace openflint::flint
