// Interrupt: the stop-signal handler, its record, the deferral count and the per-thread sections.
#include "core/Interrupt.h"

#include <atomic>
#include <cerrno>
#include <mutex>
#include <string>
#include <utility>

#include "core/SignalDeferral.h"
#include "core/TempPathRegistration.h"
#include "core/UninterruptibleSection.h"

namespace openflint {
namespace {

std::atomic<int> g_first_signal{0};
std::atomic<unsigned> g_signal_count{0};
std::atomic<int> g_deferrals{0};
thread_local int t_uninterruptible = 0;
thread_local std::chrono::steady_clock::time_point t_deadline = std::chrono::steady_clock::time_point::max();
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<unsigned>::is_always_lock_free,
              "the signal handler touches these");

// Installation of the outermost InterruptScope (guarded by g_scope_mutex).
std::mutex g_scope_mutex;
int g_scope_depth = 0;
struct sigaction g_previous[kStopSignals.size()];
bool g_installed[kStopSignals.size()] = {};

// Only atomics, unlink, sigaction and raise: all async-signal-safe (signal-safety(7)).
extern "C" void on_stop_signal(int sig) {
  const int saved_errno = errno;
  if (g_deferrals.load() > 0) {
    int none = 0;
    g_first_signal.compare_exchange_strong(none, sig);
    g_signal_count.fetch_add(1);
    errno = saved_errno;
    return;
  }
  TempPathRegistration::unlink_all();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // blocked until the handler returns, then ends the process as the default would
  errno = saved_errno;
}

}  // namespace

InterruptScope::InterruptScope() {
  std::lock_guard guard(g_scope_mutex);
  if (g_scope_depth++ != 0) return;
  g_first_signal.store(0);
  g_signal_count.store(0);
  struct sigaction act {};
  act.sa_handler = on_stop_signal;
  act.sa_flags = SA_RESTART;
  ::sigemptyset(&act.sa_mask);
  for (const int sig : kStopSignals) ::sigaddset(&act.sa_mask, sig);
  for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
    g_installed[i] = false;
    if (::sigaction(kStopSignals[i], nullptr, &g_previous[i]) != 0) continue;
    // An ignored signal stays ignored: nohup's SIGHUP, a SIGPIPE the caller chose to ignore.
    if ((g_previous[i].sa_flags & SA_SIGINFO) == 0 && g_previous[i].sa_handler == SIG_IGN) continue;
    g_installed[i] = ::sigaction(kStopSignals[i], &act, nullptr) == 0;
  }
}

InterruptScope::~InterruptScope() {
  std::lock_guard guard(g_scope_mutex);
  if (--g_scope_depth != 0) return;
  // Only our own handler is taken back: a tool that installed its own meanwhile (ibmon's watch
  // ends on SIGTERM with its verdict) keeps it until it exits, so a signal that lands between the
  // scope's end and the exit is still that tool's, not the default's (which would kill it).
  for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
    if (!g_installed[i]) continue;
    struct sigaction now {};
    if (::sigaction(kStopSignals[i], nullptr, &now) == 0 && (now.sa_flags & SA_SIGINFO) == 0 &&
        now.sa_handler != on_stop_signal)
      continue;
    ::sigaction(kStopSignals[i], &g_previous[i], nullptr);
  }
  g_first_signal.store(0);  // what came in was the scope's business
  g_signal_count.store(0);
}

bool interrupted() { return g_first_signal.load() != 0; }
int interrupt_signal() { return g_first_signal.load(); }
unsigned interrupt_count() { return g_signal_count.load(); }

std::string_view signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
  }
}

Result<void> check_interrupted() {
  if (t_uninterruptible > 0) return {};
  const int sig = g_first_signal.load();
  if (sig != 0) return make_error(ErrorCode::Interrupted, "interrupted by " + std::string(signal_name(sig)));
  if (t_deadline != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() >= t_deadline)
    return make_error(ErrorCode::Timeout, "stopped at a safe point: this thread's deadline passed");
  return {};
}

ThreadDeadline::ThreadDeadline(std::chrono::steady_clock::time_point at) : previous_(t_deadline) { t_deadline = at; }
ThreadDeadline::~ThreadDeadline() { t_deadline = previous_; }

SignalDeferral::SignalDeferral() { g_deferrals.fetch_add(1); }
SignalDeferral::~SignalDeferral() {
  if (active_) g_deferrals.fetch_sub(1);
}
SignalDeferral::SignalDeferral(SignalDeferral&& other) noexcept : active_(std::exchange(other.active_, false)) {}
SignalDeferral& SignalDeferral::operator=(SignalDeferral&& other) noexcept {
  if (this != &other) {
    if (active_) g_deferrals.fetch_sub(1);
    active_ = std::exchange(other.active_, false);
  }
  return *this;
}

UninterruptibleSection::UninterruptibleSection() { ++t_uninterruptible; }
UninterruptibleSection::~UninterruptibleSection() { --t_uninterruptible; }

}  // namespace openflint
