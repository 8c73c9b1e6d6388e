// MtrcCtrlRegister: the MTRC_CTRL access register (0x9043, tracer on/off, event arming, timestamp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Fields (fw-trace-and-fwctl.md A1; PRM mtrc_ctrl): 0x00 trace_status [31:30], arm_event [27]
// (WO), slcg_cmd [17:16] (adb only), modify_field_select [15:0] (WO; bit 0 = trace_status);
// 0x08 current_timestamp_52_32 [20:0]; 0x0C current_timestamp_31_0 (RO).
struct MtrcCtrlRegister {
  static constexpr std::uint16_t kId = 0x9043;
  static constexpr std::size_t kSize = 0x40;
  static constexpr std::size_t kMinSize = 0x10;
  static constexpr std::uint8_t kStatusDisabled = 0;
  static constexpr std::uint8_t kStatusActive = 1;
  static constexpr std::uint16_t kSelectTraceStatus = 0x0001;
  static constexpr std::uint64_t kTimestampMask = (std::uint64_t{1} << 53) - 1;

  std::uint8_t trace_status = kStatusDisabled;
  bool arm_event = false;
  std::uint8_t slcg_cmd = 0;  // 0 no change, 1 enable all, 2 default
  std::uint16_t modify_field_select = 0;
  std::uint64_t current_timestamp = 0;  // 53 bits, split over 0x08 [20:0] and 0x0C

  // A SET that changes trace_status (with arm_event as the Linux driver starts the tracer).
  [[nodiscard]] static MtrcCtrlRegister set_status(std::uint8_t status, bool arm);
  // A SET that only re-arms the event (trace_status untouched: modify_field_select 0).
  [[nodiscard]] static MtrcCtrlRegister arm();

  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  [[nodiscard]] static Result<MtrcCtrlRegister> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace openflint
