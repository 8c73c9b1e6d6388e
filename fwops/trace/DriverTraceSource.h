// DriverTraceSource: where a device's firmware trace messages are on this host (the driver's trace file and the device's PCI address), or which check says there are none.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/Result.h"

namespace openflint {

class Device;

struct DriverTraceSource {
  std::string dbdf;                 // "0000:03:00.0": the lines' device
  std::filesystem::path trace_file;  // tracefs_root() / "trace"
};

// The checks a reader of the driver's trace makes, in order, without touching the device's tracer.
enum class DriverTraceCheck {
  Passed,
  NoTracer,       // the family has no firmware tracer (catalog)
  FifoOnly,       // its tracer logs to the FIFO only, which no driver reads (catalog)
  NotOnThisHost,  // the device is not a PCI function of this host
  NoDriver,       // no driver is bound to the function
  OtherDriver,    // a driver other than the family's tracing driver is bound
  NoEvent,        // the driver's event (mlx5_fw or fw_tracer) is not under tracefs_root()
  EventOff,       // the event exists and is not enabled
};

// What the checks found. `why` is one sentence naming the device (empty when every check passed);
// `event` is the driver's event directory once found, so a caller may enable it (EventOff).
struct DriverTraceLookup {
  DriverTraceCheck failed = DriverTraceCheck::Passed;
  std::string why;
  std::filesystem::path event;
  DriverTraceSource source;  // dbdf from NoDriver on; trace_file when every check passed

  [[nodiscard]] bool passed() const { return failed == DriverTraceCheck::Passed; }
  // Whether the failure is that no driver of this host reads the tracer (not on this host, no
  // driver, another driver): who owns the tracer then tells "nobody reads it" from "another tool does".
  [[nodiscard]] bool no_reading_driver() const {
    return failed == DriverTraceCheck::NotOnThisHost || failed == DriverTraceCheck::NoDriver ||
           failed == DriverTraceCheck::OtherDriver;
  }
};

// Runs the checks; an error only when one cannot be made (the event's enable file unreadable).
[[nodiscard]] Result<DriverTraceLookup> look_up_driver_trace(Device& device);

// The source when every check passes; NotSupported with the failed check's sentence otherwise.
[[nodiscard]] Result<DriverTraceSource> locate_driver_trace(Device& device);

}  // namespace openflint
