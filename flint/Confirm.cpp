// Confirm: asking on the terminal, or answering from --yes / --no (see Confirm.h).
#include "flint/Confirm.h"

#include <unistd.h>

#include <iostream>

namespace openflint::cli {

bool confirm(const Options& options, const std::string& warning) {
  if (options.yes) return true;
  if (options.no) {
    std::cerr << "-I- " << warning << "; --no: not going ahead\n";
    return false;
  }
  if (::isatty(STDIN_FILENO) == 0) {
    std::cerr << "-E- " << warning << "; not asking without a terminal: rerun with --yes to go ahead anyway\n";
    return false;
  }
  std::cerr << "-W- " << warning << ". Continue? (y/N) ";
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "Y" || answer == "yes";
}

}  // namespace openflint::cli
