// Pager: popen of $PAGER, SIGPIPE ignored while writing to it (quitting the pager early is normal).
#include "mst/Pager.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace openflint::mst {

bool paging_wanted(bool allowed) { return allowed && ::isatty(STDOUT_FILENO) == 1; }

void print_paged(std::string_view text, bool page) {
  if (page) {
    const char* env = std::getenv("PAGER");
    const std::string pager = env != nullptr && *env != '\0' ? env : "less -FRX";
    std::cout.flush();
    struct sigaction ignore {}, old {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &old);
    if (FILE* pipe = ::popen(pager.c_str(), "w"); pipe != nullptr) {
      (void)std::fwrite(text.data(), 1, text.size(), pipe);
      (void)::pclose(pipe);
      ::sigaction(SIGPIPE, &old, nullptr);
      return;
    }
    ::sigaction(SIGPIPE, &old, nullptr);
  }
  std::cout << text;
  std::cout.flush();
}

}  // namespace openflint::mst
