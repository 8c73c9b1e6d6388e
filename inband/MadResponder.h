// MadResponder: answers vendor CR-space / register / reset MADs for one simulated (ibsim) port.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "core/Result.h"
#include "inband/CrSpaceBackend.h"
#include "mtcr/UmadPort.h"

namespace openflint {

// Optional handlers beyond CR-space. An empty hook answers MAD status 0x0c (unsupported).
struct ResponderHooks {
  // Register access: SMP attribute 0xff52 or vendor GMP attribute 0x51. `payload` is the MAD data
  // area (64 bytes for SMPs, 232 for GMPs) and is sent back as modified. NotSupported → status
  // 0x0c, any other error → 0x1c.
  std::function<Result<void>(std::uint16_t attr, std::uint8_t method, std::uint32_t attr_mod,
                             std::span<std::uint8_t> payload)>
      register_access;
  // Switch software reset (vendor attribute 0x12); the argument is the AttrMod (seconds).
  std::function<Result<void>(std::uint32_t seconds)> sw_reset;
  // Called after each answered request (for logging): class, method, attribute, AttrMod, MAD status.
  std::function<void(std::uint8_t mgmt_class, std::uint8_t method, std::uint16_t attr, std::uint32_t attr_mod,
                     std::uint16_t status)>
      trace;
};

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
      : port_(std::move(port)), backend_(&backend), hooks_(std::move(hooks)) {}

  [[nodiscard]] std::uint16_t dispatch(std::uint8_t mgmt_class, std::uint8_t method, std::uint16_t attr,
                                       std::uint32_t attr_mod, std::span<std::uint8_t> payload);
  [[nodiscard]] std::uint16_t cr_access(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> payload);
  [[nodiscard]] std::uint16_t cr_mode0(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data);
  [[nodiscard]] std::uint16_t cr_mode2(std::uint8_t method, std::uint32_t attr_mod, std::span<std::uint8_t> data);
  [[nodiscard]] std::uint16_t call_register_hook(std::uint16_t attr, std::uint8_t method, std::uint32_t attr_mod,
                                                 std::span<std::uint8_t> payload);

  UmadPort port_;
  CrSpaceBackend* backend_;
  ResponderHooks hooks_;
  std::uint64_t answered_ = 0;
};

}  // namespace openflint
