// Interrupt: stop signals (SIGINT, SIGTERM, SIGHUP, SIGPIPE) recorded as a flag that long work polls at its safe points.
#pragma once

#include <signal.h>

#include <array>
#include <chrono>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// The signals a tool stops for at a safe point instead of dying where it stands.
inline constexpr std::array<int, 4> kStopSignals{SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// Installs one async-signal-safe handler for kStopSignals while alive (every CLI holds one at
// its tool boundary, cli/ToolBoundary.h); nested scopes share the outermost one's installation,
// which starts with a clean record, and when it ends puts the previous actions back and forgets
// what it recorded.
// What the handler does depends on whether anything that must be released in order is held:
//  - while a SignalDeferral is alive (core/SignalDeferral.h: an opened device, a served tree),
//    it records the signal and returns; the work stops at its next safe point (check_interrupted()),
//    releases what it holds by RAII and the CLI reports it. A second signal is counted, nothing more:
//    the cleanup that is under way completes.
//  - otherwise nothing needs care: it removes the registered temporary files
//    (core/TempPathRegistration.h) and ends the process by the same signal, as the default would.
// SA_RESTART is set: system calls the signal lands in go on; every wait that must end on a signal
// is a bounded poll of the flag (flock, semaphores, firmware states), so no EINTR path is needed.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// Whether a stop signal arrived (under an InterruptScope) since the outermost scope began.
[[nodiscard]] bool interrupted();
// The first stop signal that arrived (0: none).
[[nodiscard]] int interrupt_signal();
// How many stop signals arrived (a second one during cleanup is only counted).
[[nodiscard]] unsigned interrupt_count();
// "SIGINT", "SIGTERM", "SIGHUP", "SIGPIPE", else "a signal".
[[nodiscard]] std::string_view signal_name(int sig);

// A safe point: Interrupted ("interrupted by SIGINT") when a stop signal arrived, unless this
// thread is inside an UninterruptibleSection (core/UninterruptibleSection.h); success otherwise.
[[nodiscard]] Result<void> check_interrupted();

// A deadline for this thread's work (ibfwmgr's per-node timeout): while one is alive, a
// check_interrupted() on this thread after `at` fails with Timeout (outside an
// UninterruptibleSection, as for a signal), so the work stops at its next safe point and the
// device keeps booting what it booted. Per thread; nested ones: the inner one applies until it ends.
class ThreadDeadline {
 public:
  explicit ThreadDeadline(std::chrono::steady_clock::time_point at);
  ~ThreadDeadline();
  ThreadDeadline(const ThreadDeadline&) = delete;
  ThreadDeadline& operator=(const ThreadDeadline&) = delete;

 private:
  std::chrono::steady_clock::time_point previous_;
};

}  // namespace openflint
