// StaleLocks: the locks and semaphores a killed tool leaves held — the advice a Busy error gets, and clear_semaphore's reclaiming.
#pragma once

#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/access/ReclaimedLock.h"

namespace openflint {

// A Busy error (a lock, semaphore or update handle another agent holds) with what to do about
// it. When this process holds the device's lock file (Device::holds_device_lock) no other
// openflint process on this host is using the device — the kernel drops a dead process's flock,
// so that lock can never be stale — and the holder is a tool that was killed (or mstflint, the
// driver, a tool on another host, which do not take openflint's lock): the advice names
// 'flint -d DEVICE clear_semaphore'. Without a device lock (in-band, remote names) it says to
// wait, or to clear if the holder is dead. Other errors are returned as they are.
[[nodiscard]] Error with_stale_lock_advice(const Device& device, Error error);
// The same for a device still being opened: its name, and whether its lock file is held.
[[nodiscard]] Error with_stale_lock_advice(const std::string& device_name, bool holds_device_lock, Error error);

struct StaleLockReport {
  std::vector<ReclaimedLock> freed;       // what was held and is free now, in the order freed
  std::vector<std::string> not_checked;   // what could not be looked at, and why
};

// What clear_semaphore frees, without needing any of it: open `device` with
// DeviceOpenOptions::clear_gateway_semaphore (the VSEC gateway semaphore is freed there, before
// the hw id is read), then this frees, each only if found held:
//  - the VSEC SEMAPHORE space's ICMD (0x0) and flash-programming (0x10) semaphores (PCI VSEC
//    devices; written 0 through the gateway);
//  - the flash gateway's lock (CMD bit 31, or the 0xf03fc semaphore: flash/FlashLock reclaim);
//  - the tools HCR's semaphore (parts with a tools HCR, ConnectX-3: through the config-space
//    window on PCI, as the HCR's own accesses go);
//  - the firmware's component-update handle (families with component update, while firmware
//    answers MCC: FORCE_HANDLE_RELEASE; a slot it was writing is never activated).
// Only safe when the holders are gone: the caller makes sure no live tool is at work (the device
// lock keeps other openflint processes out). In-band, the firmware's 0xff53 semaphore lock is
// not touched: openflint never takes it and its leases expire.
[[nodiscard]] Result<StaleLockReport> reclaim_stale_locks(Device& device);

}  // namespace openflint
