// FlashLock: RAII ownership of a device's flash (gateway CMD bit 31 or the 0xf03fc semaphore).
#pragma once

#include <chrono>
#include <string>

#include "core/Result.h"
#include "devices/FlashGatewayInfo.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Move-only. acquire() retries about every millisecond until `timeout`, then fails with
// ErrorCode::Busy (a stop signal, core/Interrupt.h: Interrupted); the destructor releases (errors on that path cannot be reported — call
// release() to see them).
class FlashLock {
 public:
  [[nodiscard]] static Result<FlashLock> acquire(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                                 std::chrono::milliseconds timeout);

  FlashLock(FlashLock&& other) noexcept;
  FlashLock& operator=(FlashLock&& other) noexcept;
  FlashLock(const FlashLock&) = delete;
  FlashLock& operator=(const FlashLock&) = delete;
  ~FlashLock();

  // Frees the lock whoever holds it (a tool that crashed with it taken): what mstflint's
  // clear_semaphore does. Only safe when no other agent is really using the flash.
  [[nodiscard]] static Result<void> force_release(RegisterAccess& access, const FlashGatewayInfo& gateway);
  // force_release, telling whether someone held it: the lock is read first (a read that finds
  // it free takes it, as acquire's does), then released. False for gateways without a lock.
  [[nodiscard]] static Result<bool> reclaim(RegisterAccess& access, const FlashGatewayInfo& gateway);
  // Where the lock is, for messages: "CMD bit 31 at 0xf0400", "semaphore at 0xf03fc".
  [[nodiscard]] static std::string describe(const FlashGatewayInfo& gateway);

  [[nodiscard]] bool owned() const { return access_ != nullptr; }
  [[nodiscard]] Result<void> release();

 private:
  FlashLock(RegisterAccess* access, const FlashGatewayInfo& gateway) : access_(access), gateway_(gateway) {}
  [[nodiscard]] static Result<bool> try_acquire(RegisterAccess& access, const FlashGatewayInfo& gateway);

  RegisterAccess* access_ = nullptr;
  FlashGatewayInfo gateway_;
};

}  // namespace openflint
