// TraceFs: the tracefs directory a simulated host serves beside its sysfs tree, where a simulated driver's tracepoint lines go.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint::pcisim {

// A plain directory laid out as the kernel's tracing directory (/sys/kernel/tracing, or
// /sys/kernel/debug/tracing under debugfs) for the one event a simulated mlx5 driver emits:
//   trace                          the ring as text: a "# tracer: nop" header, then one line per
//                                  event, "<task>-<pid> [<cpu>] <flags> <secs>.<usecs>: mlx5_fw: <text>"
//   events/mlx5/mlx5_fw/enable     "1" or "0": whether the event records (written "1" at creation,
//                                  as after `echo 1 > .../enable`; a user may write 0)
//   events/mlx5/mlx5_fw/format     the event's print format
//   events/mlx5/enable             the system's switch (informational)
// Tools read it where they would on a host once it is bind-mounted over /sys/kernel/debug/tracing
// (mstfwtrace), or through OPENFLINT_TRACEFS_ROOT (mst trace). The files are regular files: a
// reader re-reading `trace` sees what was appended since.
class TraceFs {
 public:
  // Creates (or reuses) the layout under `root`; `trace` starts with the header only.
  [[nodiscard]] static Result<std::unique_ptr<TraceFs>> create(const std::filesystem::path& root);

  // Appends "<prefix> mlx5_fw: <text>\n" when the event is enabled (false: not recorded, as the
  // kernel drops events of a disabled tracepoint); the time in the prefix is seconds since this
  // object was created. Io when the file cannot be written.
  [[nodiscard]] Result<bool> emit_mlx5_fw(std::string_view text);
  [[nodiscard]] bool enabled() const;
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  [[nodiscard]] std::uint64_t lines_written() const;

 private:
  explicit TraceFs(std::filesystem::path root);
  std::filesystem::path root_;
  mutable std::mutex mutex_;  // several drivers' threads append to one file
  std::uint64_t lines_ = 0;
  std::int64_t start_ns_ = 0;
};

}  // namespace openflint::pcisim
