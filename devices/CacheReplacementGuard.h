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

// The same guard at the addresses mstflint 4.21 reads on the later switches
// (check_cache_replacement_guard): Quantum, Spectrum-2/3 0xf0440 [25:0] offset and 0xf0448
// [23:16] command; the 7 nm gateway (Quantum-2, Spectrum-4, ConnectX-7) 0xf0484 (the whole word)
// and 0xf0488 [31:24]. The override writes the hw-id register as on every other part.
inline constexpr CacheReplacementGuard kRavenCacheReplacementGuard{
    .offset_addr = 0xf0440, .offset_mask = 0x03ffffff, .cmd_addr = 0xf0448, .cmd_mask = 0x00ff0000,
    .trigger_addr = 0xf0014};
inline constexpr CacheReplacementGuard kGen6CacheReplacementGuard{
    .offset_addr = 0xf0484, .offset_mask = 0xffffffff, .cmd_addr = 0xf0488, .cmd_mask = 0xff000000,
    .trigger_addr = 0xf0014};

}  // namespace openflint
