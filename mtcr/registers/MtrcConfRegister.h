// MtrcConfRegister: the MTRC_CONF access register (0x9041, tracer mode and host buffer).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Fields (fw-trace-and-fwctl.md A1; PRM mtrc_conf): 0x00 trace_mode [3:0];
// 0x04 log_trace_buffer_size [7:0] (log2 in 4 KiB units, memory mode only);
// 0x08 trace_mkey [31:0] (memory mode only; reserved on switches).
struct MtrcConfRegister {
  static constexpr std::uint16_t kId = 0x9041;
  static constexpr std::size_t kSize = 0x80;
  static constexpr std::size_t kMinSize = 0x0c;
  static constexpr std::uint8_t kModeFifo = 0;
  static constexpr std::uint8_t kModeMemory = 1;  // TRACE_TO_MEMORY
  // The Linux driver's buffer: 64 pages of 4 KiB, so log_trace_buffer_size 6.
  static constexpr std::uint8_t kLinuxLogBufferSize = 6;

  std::uint8_t trace_mode = kModeFifo;
  std::uint8_t log_trace_buffer_size = 0;
  std::uint32_t trace_mkey = 0;

  [[nodiscard]] std::vector<std::uint8_t> encode() const;
  [[nodiscard]] static Result<MtrcConfRegister> decode(std::span<const std::uint8_t> bytes);
};

}  // namespace openflint
