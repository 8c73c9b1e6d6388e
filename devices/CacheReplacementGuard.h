// CacheReplacementGuard: the gateway registers that tell a tool the firmware is replacing flash cache lines.
#pragma once

#include <cstdint>

namespace openflint {

// SwitchX (and the other switches of the 4th-gen gateway): while the firmware serves flash reads
// from a cache and replaces a line, the offset field and the command field of these registers are
// non-zero, and a tool driving the gateway then would collide with it (mstflint
// check_cache_replacement_gaurd; ../shared/reference/legacy-devices.md §3.2). The override
// (mstflint -override_cache_replacement, our --ocr) first writes the read-only hw-id register,
// which makes the firmware finish any pending replacement, then drives the gateway anyway.
struct CacheReplacementGuard {
  std::uint32_t offset_addr = 0;  // 0 = the gateway has no guard
  std::uint32_t offset_mask = 0;
  std::uint32_t cmd_addr = 0;
  std::uint32_t cmd_mask = 0;
  std::uint32_t trigger_addr = 0;  // written (any value) by the override

  [[nodiscard]] constexpr bool present() const { return offset_addr != 0; }
};

// 0xf0408 [25:0] offset, 0xf040c [23:16] command; the trigger is the hw-id register 0xf0014.
inline constexpr CacheReplacementGuard kGen4CacheReplacementGuard{
    .offset_addr = 0xf0408, .offset_mask = 0x03ffffff, .cmd_addr = 0xf040c, .cmd_mask = 0x00ff0000,
    .trigger_addr = 0xf0014};

}  // namespace openflint
