// Confirm: -y/--no first, then a terminal question; no terminal answers "no".
#include "cli/Confirm.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>

namespace openflint::cli {

bool confirm(std::string_view question, const ConfirmPolicy& policy) {
  if (policy.yes) return true;
  if (policy.no) {
    std::cerr << "-I- " << question << " --no: no\n";
    return false;
  }
  if (::isatty(STDIN_FILENO) == 0) {
    std::cerr << "-E- " << question << " Not asking without a terminal: the answer is no (rerun with --yes)\n";
    return false;
  }
  std::cerr << "-W- " << question << " (y/N) " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  std::transform(answer.begin(), answer.end(), answer.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return answer == "y" || answer == "yes";
}

}  // namespace openflint::cli
