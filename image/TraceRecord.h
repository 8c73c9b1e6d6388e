// TraceRecord: one firmware trace message as the driver emits it, and its mlx5_fw tracepoint text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

struct TraceRecord {
  std::uint64_t timestamp = 0;  // 53 bits, the tracer's clock
  bool lost = false;            // the firmware dropped events before this one
  std::uint8_t event_id = 0;
  std::string message;
  friend bool operator==(const TraceRecord&, const TraceRecord&) = default;
};

// The Linux tracepoint mlx5:mlx5_fw's text (fw_tracer_tracepoint.h, "%s [0x%llx] %d [0x%x] %s"):
// "<dbdf> [0x<timestamp, lower-case hex, no padding>] <lost 0|1> [0x<event_id hex>] <message>",
// e.g. "0000:03:00.0 [0x2bd64e3a1f] 0 [0x2c] link up". This is what follows "mlx5_fw: " in a
// tracefs trace line and what mstfwtrace prints after dropping the dbdf.
[[nodiscard]] std::string tracepoint_text(std::string_view dbdf, const TraceRecord& record);

// The dbdf and the record back from that text (the part after "mlx5_fw: ", without the line's
// newline). InvalidArgument naming the part that does not fit.
struct ParsedTracepoint {
  std::string dbdf;
  TraceRecord record;
};
[[nodiscard]] Result<ParsedTracepoint> parse_tracepoint_text(std::string_view text);

}  // namespace openflint
