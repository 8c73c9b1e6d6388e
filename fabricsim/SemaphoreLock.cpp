// SemaphoreLock: lock / extend / release of the tools semaphores over SMP 0xff53, with leases.
#include "fabricsim/SemaphoreLock.h"

#include "mtcr/inband/MadFormat.h"

namespace openflint {

std::uint32_t SemaphoreLock::holder(std::uint16_t address, Clock::time_point now) const {
  auto it = held_.find(address);
  return it != held_.end() && now < it->second.expires ? it->second.key : 0;
}

std::uint32_t SemaphoreLock::next_key() {
  // Keys differ from lock to lock and are never 0 (0 means "not granted").
  do {
    key_seed_ = key_seed_ * 1664525u + 1013904223u;
  } while (key_seed_ == 0);
  return key_seed_;
}

Result<void> SemaphoreLock::handle(bool set, std::span<std::uint8_t> data, Clock::time_point now) {
  if (data.size() < 12) return make_error(ErrorCode::InvalidArgument, "semaphore lock: short data area");
  const std::uint32_t dword1 = mad::get32(data.data(), 4);
  const auto address = static_cast<std::uint16_t>(dword1 & 0xffff);
  const auto op = static_cast<std::uint8_t>((dword1 >> 16) & 0x3);
  const std::uint32_t key = mad::get32(data.data(), 8);
  std::uint32_t answer_key = 0;
  if (set) {
    if (address > kMaxAddress)
      return make_error(ErrorCode::InvalidArgument, "semaphore lock: no semaphore at " + std::to_string(address));
    const std::uint32_t current = holder(address, now);
    switch (op) {
      case kOpLock:
        if (current == 0) {
          answer_key = next_key();
          held_[address] = Held{answer_key, now + lease()};
        }
        break;
      case kOpExtend:
        if (current != 0 && current == key) {
          held_[address].expires = now + lease();
          answer_key = key;
        }
        break;
      case kOpRelease:
        if (current != 0 && current != key)
          return make_error(ErrorCode::InvalidArgument, "semaphore lock: release with another tool's key");
        held_.erase(address);
        break;
      default:
        return make_error(ErrorCode::InvalidArgument, "semaphore lock: unknown op " + std::to_string(op));
    }
  }
  const std::uint32_t dword0 = (1u << 31) | (std::uint32_t{lease_exponent_} << 16) | kMaxAddress;
  mad::put32(data.data(), 0, dword0);
  mad::put32(data.data(), 4, dword1);
  mad::put32(data.data(), 8, answer_key);
  return {};
}

}  // namespace openflint
