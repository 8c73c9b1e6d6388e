// ConfigText: one bounded read for every fabric configuration file, the line length checked before any parser runs.
#include "fabric/ConfigText.h"

#include <algorithm>

#include "core/InputFile.h"

namespace openflint {

Result<std::string> read_config_text(const std::string& path, const std::string& what) {
  OF_ASSIGN(const auto bytes, read_input_file(path, kMaxConfigFileBytes, what));
  std::string text(bytes.begin(), bytes.end());
  std::size_t number = 1;
  for (std::size_t pos = 0; pos < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    if (end - pos > kMaxConfigLineBytes)
      return make_error(ErrorCode::InvalidArgument, path + ":" + std::to_string(number) + ": line of " +
                                                        std::to_string(end - pos) + " bytes, more than the " +
                                                        std::to_string(kMaxConfigLineBytes) + "-byte limit for a line of a " + what);
    pos = end + 1;
  }
  return text;
}

}  // namespace openflint
