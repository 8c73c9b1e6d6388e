// TracerOwnership: the firmware tracer's ownership (MTRC_CAP.trace_owner) asked for, and given back by RAII.
#pragma once

#include <optional>

#include "core/Result.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// fw-trace-and-fwctl.md A1/A2: writing MTRC_CAP with trace_owner = 1 asks for ownership; the
// answer's trace_owner says whether it was granted. One function owns the tracer at a time (the
// driver of one PF, or a higher-priority tool). Move-only; the destructor gives ownership back
// (trace_owner = 0) on every path, early returns and exceptions included.
class TracerOwnership {
 public:
  // Asks for ownership through `port` (which must outlive the guard): the guard when granted,
  // nullopt when the firmware refused (someone else owns the tracer). Io when the register access
  // fails or answers a status.
  [[nodiscard]] static Result<std::optional<TracerOwnership>> request(RegisterPort& port);

  TracerOwnership(TracerOwnership&& other) noexcept : port_(other.port_) { other.port_ = nullptr; }
  TracerOwnership& operator=(TracerOwnership&& other) noexcept;
  TracerOwnership(const TracerOwnership&) = delete;
  TracerOwnership& operator=(const TracerOwnership&) = delete;
  ~TracerOwnership();

  // Gives ownership back now, with the outcome; the destructor then does nothing.
  [[nodiscard]] Result<void> release();

 private:
  explicit TracerOwnership(RegisterPort& port) : port_(&port) {}
  RegisterPort* port_;  // null once released or moved from
};

// What an ownership probe found: whether anybody (a driver, another tool) owns the tracer.
enum class TracerOwner { Nobody, Someone };

// Asks for ownership and, when granted, gives it back at once: Nobody when it was granted (no
// driver or tool reads the tracer), Someone when it was refused.
[[nodiscard]] Result<TracerOwner> probe_tracer_owner(RegisterPort& port);

}  // namespace openflint
