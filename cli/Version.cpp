// Version: the number comes from a header CMake writes into the build tree (cli/ProjectVersion.h),
// so a new version recompiles this file only.
#include "cli/Version.h"

#include <string>

#include "cli/ProjectVersion.h"

namespace openflint::cli {

std::string version_line(std::string_view tool) {
  return std::string(tool) + " (openflint) " + kProjectVersion;
}

std::optional<int> answer_help_or_version(int argc, char** argv, std::string_view tool,
                                          void (*usage)(std::FILE*)) {
  if (argc != 2) return std::nullopt;
  const std::string arg = argv[1];
  if (arg == "--help" || arg == "-h") {
    usage(stdout);
    return 0;
  }
  if (arg == "--version") {
    std::printf("%s\n", version_line(tool).c_str());
    return 0;
  }
  return std::nullopt;
}

}  // namespace openflint::cli
