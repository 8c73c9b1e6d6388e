// What the web console's browser tests share: whether Debian's chromium, chromedriver and
// python3-selenium are here, and the processes still mentioning a text (a browser's profile
// directory: none may outlive a check).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/TestSupport.h"

namespace openflint::test {

inline bool have_browser() {
  namespace fs = std::filesystem;
  return fs::exists("/usr/bin/chromium") && fs::exists("/usr/bin/chromedriver") &&
         run_command({"/usr/bin/python3", "-c", "import selenium"}).exit_code == 0;
}

inline std::vector<std::string> processes_mentioning(const std::string& text) {
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (cmdline.find(text) != std::string::npos) found.push_back(pid + ": " + cmdline.substr(0, 80));
  }
  return found;
}

}  // namespace openflint::test
