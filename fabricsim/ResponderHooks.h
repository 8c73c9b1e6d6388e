// ResponderHooks: what a MAD responder calls for requests beyond CR-space (register access, reset, tracing).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "core/Result.h"
#include "mtcr/I2cAccess.h"

namespace openflint {

// Optional handlers beyond CR-space. An empty hook answers MAD status 0x0c (unsupported).
struct ResponderHooks {
  // Register access: SMP attribute 0xff52 or vendor GMP attribute 0x51. `payload` is the MAD data
  // area (64 bytes for SMPs, 232 for GMPs) and is sent back as modified. NotSupported → status
  // 0x0c, any other error → 0x1c.
  std::function<Result<void>(std::uint16_t attr, std::uint8_t method, std::uint32_t attr_mod,
                             std::span<std::uint8_t> payload)>
      register_access;
  // The tools-semaphore lock (SMP attribute 0xff53, fabricsim/SemaphoreLock): `payload` is the SMP
  // data area, answered in place; `set` is method SET (GET: the query). Same error mapping.
  std::function<Result<void>(bool set, std::span<std::uint8_t> payload)> semaphore_lock;
  // Switch software reset (vendor attribute 0x12); the argument is the AttrMod (seconds).
  std::function<Result<void>(std::uint32_t seconds)> sw_reset;
  // The device's I2C bus for ExtPortAccess (vendor attribute 0x13, I2C port #1), asked per
  // request; null (or no hook): the attribute is unsupported (fabricsim/ExtPortAccessRequest.h).
  std::function<I2cAccess*()> i2c_bus;
  // Called after each answered request (for logging): class, method, attribute, AttrMod, MAD status
  // and the response's data area (SMP 64 bytes, vendor 232), as sent back.
  std::function<void(std::uint8_t mgmt_class, std::uint8_t method, std::uint16_t attr, std::uint32_t attr_mod,
                     std::uint16_t status, std::span<const std::uint8_t> data)>
      trace;
};

}  // namespace openflint
