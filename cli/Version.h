// Version: what every tool's --version prints; the number is the project's (CMake project()).
#pragma once

#include <string>
#include <string_view>

namespace openflint::cli {

// "TOOL (openflint) X.Y.Z": one line, the form help2man reads for a man page's header.
[[nodiscard]] std::string version_line(std::string_view tool);

}  // namespace openflint::cli
