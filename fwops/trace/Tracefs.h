// Tracefs: where the kernel's trace file and the mlx5 driver's firmware-trace event live, and switching the event on.
#pragma once

#include <filesystem>
#include <optional>

#include "core/Result.h"

namespace openflint {

// The tracefs root: OPENFLINT_TRACEFS_ROOT when set (a test's or a simulator's tree), else
// /sys/kernel/tracing when it holds a `trace` file (tracefs mounted there, Linux 4.1+), else
// /sys/kernel/debug/tracing (debugfs, where mstfwtrace looks).
[[nodiscard]] std::filesystem::path tracefs_root();

// The directory of the driver's firmware-trace event under `root`: events/mlx5/mlx5_fw (the
// upstream driver's tracepoint) or events/mlx5/fw_tracer (the name MFT documents, probably
// MLNX_OFED's), the first that exists; nullopt when neither does (no driver with the tracer is
// loaded, or tracing is not mounted there).
[[nodiscard]] std::optional<std::filesystem::path> find_driver_trace_event(const std::filesystem::path& root);

// Whether the event records: its `enable` file reads 1. Io when it cannot be read.
[[nodiscard]] Result<bool> trace_event_enabled(const std::filesystem::path& event_dir);

// The event switched on (1 written to `enable`) while the guard lives; the old value is written
// back when it ends, on every path. Move-only.
class TraceEventEnabling {
 public:
  // PermissionDenied or Io when `enable` cannot be written.
  [[nodiscard]] static Result<TraceEventEnabling> enable(const std::filesystem::path& event_dir);

  TraceEventEnabling(TraceEventEnabling&& other) noexcept;
  TraceEventEnabling& operator=(TraceEventEnabling&& other) noexcept;
  TraceEventEnabling(const TraceEventEnabling&) = delete;
  TraceEventEnabling& operator=(const TraceEventEnabling&) = delete;
  ~TraceEventEnabling();

  // Whether the event was off before (so the destructor switches it off again).
  [[nodiscard]] bool was_off() const { return restore_; }

 private:
  TraceEventEnabling(std::filesystem::path enable_file, bool restore) : enable_file_(std::move(enable_file)), restore_(restore) {}
  std::filesystem::path enable_file_;
  bool restore_ = false;  // write 0 back at the end
};

}  // namespace openflint
