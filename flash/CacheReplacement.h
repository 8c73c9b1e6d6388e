// CacheReplacement: what opening the flash does when the firmware is replacing a flash cache line.
#pragma once

namespace openflint {

// Refuse: FlashDriver::open fails with ErrorCode::Busy naming the override. Override (flint
// --ocr, mstflint -override_cache_replacement): write the guard's trigger register so the
// firmware finishes the replacement, then drive the gateway (devices/CacheReplacementGuard.h).
enum class CacheReplacement { Refuse, Override };

}  // namespace openflint
