// Assets: the console's pages, script and style sheet (web/assets/), compiled into the program
// (cmake/EmbedAssets.cmake), so nothing is read from disk at run time and no path reaches a file.
#pragma once

#include <string_view>

namespace openflint {

struct WebAsset {
  std::string_view path;          // "/", "/device", "/assets/app.js", ...
  std::string_view content_type;  // "text/html; charset=utf-8", ...
  std::string_view body;
};

// The asset served at `path`, or nullptr.
[[nodiscard]] const WebAsset* find_web_asset(std::string_view path);

}  // namespace openflint
