// SemaphoreLock: the firmware's in-band tools-semaphore lock (SMP attribute 0xff53) with leases.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <span>

#include "core/Result.h"

namespace openflint {

// The SMP 0xff53 "semaphore lock" of ConnectX-4-class firmware (mft-internals §4.5): a tool asks
// (GET) whether it exists, then locks (SET op 1) one of the tools semaphores — 0 (ICMD) or 0x10
// (flash programming), the addresses the VSEC semaphore space uses over PCI — and gets a key;
// with the key it extends (op 2) or releases (op 3) it. A lock lasts one lease
// (50 ms * 2^lease_time_exponent) unless extended; an expired lock is free for the next tool.
// Data area (big-endian dwords of the SMP data): dword 0 [7:0] semaphore_max_addr, [23:16]
// lease_time_exponent, [31] is_leaseable; dword 1 [15:0] semaphore_addr, [17:16] op; dword 2
// lock_key. Every answer carries the three dword-0 fields.
//   lock on a free (or expired) semaphore  -> a new non-zero key
//   lock on one held by another key        -> key 0 (busy: mstflint retries)
//   extend with the holder's key           -> the same key, a new lease; else key 0
//   release with the holder's key (or of a free one) -> key 0; another key -> InvalidArgument
// An address above semaphore_max_addr or another op: InvalidArgument (MAD status 0x1c).
// Volatile, like the firmware's: a device reset clears it (clear()).
class SemaphoreLock {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint8_t kMaxAddress = 0x10;
  static constexpr std::uint8_t kOpLock = 1;
  static constexpr std::uint8_t kOpExtend = 2;
  static constexpr std::uint8_t kOpRelease = 3;

  // lease_exponent: lease = 50 ms * 2^lease_exponent (7: 6.4 s).
  explicit SemaphoreLock(std::uint8_t lease_exponent = 7) : lease_exponent_(lease_exponent) {}

  // Answers one request in place: `data` is the SMP data area (at least 12 bytes); `set` is
  // method SET (else GET: the query). `now` decides expiry.
  [[nodiscard]] Result<void> handle(bool set, std::span<std::uint8_t> data, Clock::time_point now);
  // The key holding `address` at `now`, 0 if free.
  [[nodiscard]] std::uint32_t holder(std::uint16_t address, Clock::time_point now) const;
  [[nodiscard]] std::chrono::milliseconds lease() const { return std::chrono::milliseconds(50LL << lease_exponent_); }
  void clear() { held_.clear(); }

 private:
  struct Held {
    std::uint32_t key = 0;
    Clock::time_point expires;
  };
  std::uint32_t next_key();

  std::uint8_t lease_exponent_;
  std::uint32_t key_seed_ = 0x5a17c0de;
  std::map<std::uint16_t, Held> held_;
};

}  // namespace openflint
