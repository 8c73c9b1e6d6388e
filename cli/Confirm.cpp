// Confirm: -y/--no first, then a terminal question; no terminal answers "no".
#include "cli/Confirm.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <iostream>
#include <string>

#include "core/Interrupt.h"

namespace openflint::cli {
namespace {

// Waits for a line on the terminal (canonical mode: readable once Enter is pressed), looking
// for a stop signal every 100 ms: Ctrl-C at the question is a "no", not a hang (the handler
// restarts the read it lands in).
bool answer_ready() {
  for (;;) {
    if (interrupted()) return false;
    pollfd in{STDIN_FILENO, POLLIN, 0};
    const int ready = ::poll(&in, 1, 100);
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return true;  // let the read report it
  }
}

}  // namespace

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
  if (!answer_ready()) {
    std::cerr << '\n';
    return false;
  }
  if (!std::getline(std::cin, answer)) return false;
  std::transform(answer.begin(), answer.end(), answer.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return answer == "y" || answer == "yes";
}

}  // namespace openflint::cli
