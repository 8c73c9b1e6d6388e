// SignalStopper: the sigwait thread.
#include "cli/SignalStopper.h"

#include <pthread.h>

namespace openflint::cli {

SignalStopper::SignalStopper(std::function<void()> stop) {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  sigaddset(&set_, SIGHUP);
  sigaddset(&set_, SIGUSR1);
  ::pthread_sigmask(SIG_BLOCK, &set_, nullptr);
  thread_ = std::thread([this, stop = std::move(stop)] {
    int sig = 0;
    ::sigwait(&set_, &sig);
    stop();
  });
}

SignalStopper::~SignalStopper() {
  ::pthread_kill(thread_.native_handle(), SIGUSR1);
  thread_.join();
}

}  // namespace openflint::cli
