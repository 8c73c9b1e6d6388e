// SignalDeferral: while alive, a stop signal waits for the next safe point instead of ending the process.
#pragma once

namespace openflint {

// Held by whatever must be released in order when a tool stops (fwops/Device: locks, semaphores,
// a firmware update handle, a remote session). Move-only; every live holder counts once. Without
// an InterruptScope it changes nothing (the process keeps the default actions). See core/Interrupt.h.
class SignalDeferral {
 public:
  SignalDeferral();
  ~SignalDeferral();
  SignalDeferral(SignalDeferral&& other) noexcept;
  SignalDeferral& operator=(SignalDeferral&& other) noexcept;
  SignalDeferral(const SignalDeferral&) = delete;
  SignalDeferral& operator=(const SignalDeferral&) = delete;

 private:
  bool active_ = true;
};

}  // namespace openflint
