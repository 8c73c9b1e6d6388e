// Version: what every tool's --version prints; the number is the project's (CMake project()).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace openflint::cli {

// "TOOL (openflint) X.Y.Z": one line, the form help2man reads for a man page's header.
[[nodiscard]] std::string version_line(std::string_view tool);

// For tools that parse argv by hand: `TOOL --help|-h` prints `usage` on stdout, `TOOL --version`
// the version line. The exit code (0) when argv was one of those, nullopt otherwise.
[[nodiscard]] std::optional<int> answer_help_or_version(int argc, char** argv, std::string_view tool,
                                                        void (*usage)(std::FILE*));

}  // namespace openflint::cli
