// Version: the number comes from a header CMake writes into the build tree (cli/ProjectVersion.h),
// so a new version recompiles this file only.
#include "cli/Version.h"

#include "cli/ProjectVersion.h"

namespace openflint::cli {

std::string version_line(std::string_view tool) {
  return std::string(tool) + " (openflint) " + kProjectVersion;
}

}  // namespace openflint::cli
