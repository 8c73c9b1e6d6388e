// DriverTraceSource: the driver's trace file for a device, from the catalog, sysfs and tracefs.
#include "fwops/trace/DriverTraceSource.h"

#include "fwops/Device.h"
#include "fwops/trace/DriverTraceReader.h"
#include "fwops/trace/Tracefs.h"

namespace openflint {
Result<DriverTraceSource> locate_driver_trace(Device& device) {
  const DeviceInfo& family = device.info();
  if (family.tracer == nullptr)
    return make_error(ErrorCode::NotSupported, std::string(family.name) + " has no firmware tracer");
  if (!family.tracer->host_memory_mode || family.tracer->driver.empty())
    return make_error(ErrorCode::NotSupported, std::string(family.name) +
                                                   "'s tracer logs to its FIFO only, which no driver reads (how is not public)");
  DriverTraceSource source;
  source.dbdf = pci_function_dbdf(device.pci_dir());
  if (source.dbdf.empty())
    return make_error(ErrorCode::NotSupported, device.name() + " is not a PCI function of this host: no driver here prints its traces");
  const auto driver = bound_pci_driver(device.pci_dir());
  const std::string_view tracing_driver = family.tracer->driver;
  if (!driver || *driver != tracing_driver)
    return make_error(ErrorCode::NotSupported, source.dbdf + (driver ? " is bound to " + *driver : std::string(" has no driver bound")) +
                                                   ": only " + std::string(tracing_driver) + " prints the firmware's traces");
  const auto root = tracefs_root();
  const auto event = find_driver_trace_event(root);
  if (!event)
    return make_error(ErrorCode::NotSupported, "the driver's firmware-trace event is not under " + root.string());
  OF_ASSIGN(const bool enabled, trace_event_enabled(*event));
  if (!enabled)
    return make_error(ErrorCode::NotSupported, "the driver's firmware-trace event is off (echo 1 > " + (*event / "enable").string() + ")");
  source.trace_file = root / "trace";
  return source;
}

}  // namespace openflint
