// FlashLock: set-and-test acquisition with a deadline, release on scope exit.
#include "flash/FlashLock.h"

#include <string>
#include <thread>

#include "core/DurationText.h"
#include "core/HexString.h"
#include "core/Interrupt.h"

namespace openflint {

Result<bool> FlashLock::try_acquire(RegisterAccess& access, const FlashGatewayInfo& gateway) {
  switch (gateway.lock) {
    case FlashLockKind::None:
      return true;
    case FlashLockKind::Semaphore: {
      OF_ASSIGN(std::uint32_t v, access.read32(gateway.semaphore_addr));
      return v == 0;  // the read that returns 0 took it
    }
    case FlashLockKind::CmdBit31: {
      OF_ASSIGN(std::uint32_t v, access.read32(gateway.cmd_addr));
      return ((v >> gateway.layout.lock_bit) & 1u) == 0;
    }
  }
  return make_error(ErrorCode::Internal, "unknown flash lock kind");
}

std::string FlashLock::describe(const FlashGatewayInfo& gateway) {
  if (gateway.lock == FlashLockKind::Semaphore) return "semaphore at " + hex_string(gateway.semaphore_addr);
  return "CMD bit " + std::to_string(gateway.layout.lock_bit) + " at " + hex_string(gateway.cmd_addr);
}

Result<FlashLock> FlashLock::acquire(RegisterAccess& access, const FlashGatewayInfo& gateway,
                                     std::chrono::milliseconds timeout) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + timeout;
  for (;;) {
    OF_ASSIGN_CTX(const bool got, try_acquire(access, gateway), "acquiring the flash lock");
    if (got) return FlashLock(&access, gateway);
    OF_TRY_CTX(check_interrupted(), "waiting for the flash lock");
    if (const auto now = std::chrono::steady_clock::now(); now >= deadline) {
      const std::uint32_t where =
          gateway.lock == FlashLockKind::Semaphore ? gateway.semaphore_addr : gateway.cmd_addr;
      return make_error(ErrorCode::Busy, "flash lock at " + hex_string(where) +
                                             " is held by another agent: still held after " + seconds_text(now - start));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

FlashLock::FlashLock(FlashLock&& other) noexcept : access_(other.access_), gateway_(other.gateway_) {
  other.access_ = nullptr;
}

FlashLock& FlashLock::operator=(FlashLock&& other) noexcept {
  if (this != &other) {
    (void)release();
    access_ = other.access_;
    gateway_ = other.gateway_;
    other.access_ = nullptr;
  }
  return *this;
}

FlashLock::~FlashLock() { (void)release(); }

Result<void> FlashLock::release() {
  if (access_ == nullptr) return {};
  RegisterAccess* access = access_;
  access_ = nullptr;
  return force_release(*access, gateway_);
}

Result<bool> FlashLock::reclaim(RegisterAccess& access, const FlashGatewayInfo& gateway) {
  if (gateway.lock == FlashLockKind::None) return false;
  OF_ASSIGN(const bool took, try_acquire(access, gateway));  // a free lock is taken by this read
  OF_TRY(force_release(access, gateway));
  return !took;
}

Result<void> FlashLock::force_release(RegisterAccess& access, const FlashGatewayInfo& gateway) {
  switch (gateway.lock) {
    case FlashLockKind::None: return {};
    case FlashLockKind::Semaphore: return access.write32(gateway.semaphore_addr, 0);
    case FlashLockKind::CmdBit31: return access.write32(gateway.cmd_addr, 0);
  }
  return {};
}

}  // namespace openflint
