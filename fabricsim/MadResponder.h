// MadResponder: answers vendor CR-space / register / reset MADs for one simulated (ibsim) port.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/Result.h"
#include "fabricsim/CrSpaceBackend.h"
#include "fabricsim/MadRequestHandler.h"
#include "fabricsim/ResponderHooks.h"
#include "mtcr/inband/UmadPort.h"

namespace openflint {

class MadResponder {
 public:
  // Attaches to the port (under umad2sim: the node named by SIM_HOST), becomes its SM client and
  // registers classes 0x01, 0x81, 0x09 and 0x0A. `backend` must outlive the responder.
  [[nodiscard]] static Result<MadResponder> attach(CrSpaceBackend& backend, ResponderHooks hooks,
                                                   const std::string& ca = "", int port = 0);

  // Answers MADs until `stop` is set (checked every poll_ms).
  [[nodiscard]] Result<void> serve(const std::atomic<bool>& stop, int poll_ms = 100);
  // Handles at most one MAD; returns whether one arrived.
  [[nodiscard]] Result<bool> serve_one(int timeout_ms);

  [[nodiscard]] std::uint64_t answered() const { return answered_; }

 private:
  MadResponder(UmadPort port, CrSpaceBackend& backend, ResponderHooks hooks)
      : port_(std::move(port)), handler_(backend, hooks), trace_(std::move(hooks.trace)) {}

  UmadPort port_;
  MadRequestHandler handler_;
  decltype(ResponderHooks::trace) trace_;
  std::uint64_t answered_ = 0;
};

}  // namespace openflint
