// SignalStopper: how a long-running server tool ends on SIGINT/SIGTERM/SIGHUP — the signals are
// blocked in every thread and taken by one sigwait thread, which calls `stop` (a server's stop()
// is not async-signal-safe, so not from a handler). The destructor wakes that thread (SIGUSR1)
// when the server ended by itself. Create it before the server starts its own threads.
#pragma once

#include <signal.h>

#include <functional>
#include <thread>

namespace openflint::cli {

class SignalStopper {
 public:
  explicit SignalStopper(std::function<void()> stop);
  ~SignalStopper();
  SignalStopper(const SignalStopper&) = delete;
  SignalStopper& operator=(const SignalStopper&) = delete;

 private:
  sigset_t set_{};
  std::thread thread_;
};

}  // namespace openflint::cli
