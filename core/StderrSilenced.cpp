// StderrSilenced: one process-wide redirection of fd 2, counted so that nested and concurrent guards restore it once.
#include "core/StderrSilenced.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace openflint {
namespace {

std::mutex g_mutex;
int g_holders = 0;     // guards alive
int g_saved_fd = -1;   // the real stderr while redirected; -1 when not redirected

}  // namespace

StderrSilenced::StderrSilenced() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_holders++ > 0) return;
  std::fflush(stderr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;
  g_saved_fd = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (g_saved_fd >= 0 && ::dup2(null, STDERR_FILENO) < 0) {
    ::close(g_saved_fd);
    g_saved_fd = -1;
  }
  ::close(null);
}

StderrSilenced::~StderrSilenced() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_holders > 0 || g_saved_fd < 0) return;
  std::fflush(stderr);
  (void)::dup2(g_saved_fd, STDERR_FILENO);
  ::close(g_saved_fd);
  g_saved_fd = -1;
}

}  // namespace openflint
