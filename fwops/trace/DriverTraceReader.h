// DriverTraceReader: one device's firmware trace messages, as the mlx5 driver printed them into the kernel's trace file.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/TraceRecord.h"

namespace openflint {

// The PCI function's dbdf as the kernel names it ("0000:03:00.0", lower case) from its sysfs
// folder (Device::pci_dir()); empty for an empty path.
[[nodiscard]] std::string pci_function_dbdf(const std::filesystem::path& pci_dir);
// The kernel driver bound to the function: the basename of its sysfs `driver` link
// ("mlx5_core"); nullopt when none is bound.
[[nodiscard]] std::optional<std::string> bound_pci_driver(const std::filesystem::path& pci_dir);

struct DriverTraceStats {
  std::uint64_t lines = 0;        // lines read (every pass, re-reads included)
  std::uint64_t malformed = 0;    // this device's marker and dbdf, but not the tracepoint's text
  std::uint64_t not_newer = 0;    // this device's, dropped: timestamp not after the last kept
};

// Reads `trace` (the tracefs file, re-read whole on every pass as mstfwtrace does: tracefs
// reports size 0; a regular file that only grew is read on from where the last pass ended).
// Keeps the lines holding "mlx5_fw: " or "fw_tracer: " whose text after the marker starts with
// the device's dbdf and a space, parses that text (parse_tracepoint_text), and keeps a record
// only when its timestamp is strictly greater than the last one kept — mstfwtrace's rule, which
// drops repeats of a re-read file, but also a message with the timestamp of the one before and
// every message after the tracer's clock restarted (a device reset) until it passes the old
// value again.
class DriverTraceReader {
 public:
  DriverTraceReader(std::filesystem::path trace_file, std::string dbdf)
      : trace_file_(std::move(trace_file)), dbdf_(std::move(dbdf)) {}

  // One pass: the records new since the last pass. NotFound when the file is absent, Io when it
  // cannot be read.
  [[nodiscard]] Result<std::vector<TraceRecord>> read_new();

  // Passes every `interval` until `stop` is requested, handing each new record to `emit`. A file
  // that shrank or was replaced is read from its start (the timestamp rule drops what was seen);
  // a file absent for a while (rotated) is waited for. Returns when stopped; an Io error ends it.
  [[nodiscard]] Result<void> follow(const std::function<void(const TraceRecord&)>& emit, std::stop_token stop,
                                    std::chrono::milliseconds interval = std::chrono::milliseconds(200));

  [[nodiscard]] const DriverTraceStats& stats() const { return stats_; }
  [[nodiscard]] const std::filesystem::path& trace_file() const { return trace_file_; }

 private:
  void take_line(std::string_view line, std::vector<TraceRecord>& out);

  std::filesystem::path trace_file_;
  std::string dbdf_;
  std::optional<std::uint64_t> last_timestamp_;
  // Where a regular file's last pass ended (after its last complete line), and which file it was.
  std::uint64_t offset_ = 0;
  std::uint64_t inode_ = 0;
  DriverTraceStats stats_;
};

}  // namespace openflint
