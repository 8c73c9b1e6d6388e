// SessionFlashLock: probe the flash lock with a zero-wait acquire; force-release one a vanished client left.
#include "remote/SessionFlashLock.h"

#include "flash/FlashLock.h"

namespace openflint {

Result<bool> flash_lock_free(Device& device) {
  auto lock = FlashLock::acquire(device.access(), device.info().flash_gateway, std::chrono::milliseconds{0});
  if (lock) {
    OF_TRY(lock->release());
    return true;
  }
  if (lock.error().code() == ErrorCode::Busy) return false;
  return make_error(std::move(lock).error());
}

Result<bool> release_flash_lock_left_by_session(Device& device, bool free_at_open) {
  if (!free_at_open) return false;  // someone else's (or an older crash's): not ours to free
  OF_ASSIGN(const bool free_now, flash_lock_free(device));
  if (free_now) return false;
  OF_TRY(FlashLock::force_release(device.access(), device.info().flash_gateway));
  return true;
}

}  // namespace openflint
