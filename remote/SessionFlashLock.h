// SessionFlashLock: the flash lock a bus-protocol client may leave taken when it dies mid-burn, and giving it back.
#pragma once

#include "core/Result.h"
#include "fwops/Device.h"

namespace openflint {

// The protocol has no notion of the flash lock: a client takes it with plain CR-space accesses
// (the 0xf03fc semaphore, the gateway CMD bit 31), and a client killed mid-burn never frees it;
// the device then answers "busy" to every tool until someone runs clear_semaphore. The server
// knows better: it holds the device (and its lock file) for the whole session, so a flash lock
// that was free when the session opened the device and is taken when the session closes it was
// taken by that session's client.

// Whether the flash lock is free now: a probe that takes it with no wait and gives it back.
[[nodiscard]] Result<bool> flash_lock_free(Device& device);

// At session close: when `free_at_open` and the lock is taken now, releases it (FlashLock::
// force_release). True when it released one.
[[nodiscard]] Result<bool> release_flash_lock_left_by_session(Device& device, bool free_at_open);

}  // namespace openflint
