// DriverTraceSource: where a device's firmware trace messages are on this host (the driver's trace file and the device's PCI address), or why there are none.
#pragma once

#include <filesystem>
#include <string>

#include "core/Result.h"

namespace openflint {

class Device;

struct DriverTraceSource {
  std::string dbdf;                 // "0000:03:00.0": the lines' device
  std::filesystem::path trace_file;  // tracefs_root() / "trace"
};

// The checks a reader of the driver's trace makes, without touching the device's tracer: the
// family has a tracer that logs to host memory, the device is a PCI function here with mlx5_core
// bound, and the driver's event (mlx5_fw or fw_tracer) exists under tracefs_root() and is
// enabled. NotSupported naming the first that fails (mst trace adds an ownership probe to tell
// "nobody reads it" from "another tool owns it").
[[nodiscard]] Result<DriverTraceSource> locate_driver_trace(Device& device);

}  // namespace openflint
