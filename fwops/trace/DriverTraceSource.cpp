// DriverTraceSource: the driver's trace file for a device, from the catalog, sysfs and tracefs.
#include "fwops/trace/DriverTraceSource.h"

#include "fwops/Device.h"
#include "fwops/trace/DriverTraceReader.h"
#include "fwops/trace/Tracefs.h"

namespace openflint {
namespace {

DriverTraceLookup failed_check(DriverTraceLookup lookup, DriverTraceCheck check, std::string why) {
  lookup.failed = check;
  lookup.why = std::move(why);
  return lookup;
}

}  // namespace

Result<DriverTraceLookup> look_up_driver_trace(Device& device) {
  const DeviceInfo& family = device.info();
  const std::string who = device.name() + " (" + std::string(family.name) + ")";
  DriverTraceLookup lookup;
  if (family.tracer == nullptr)
    return failed_check(lookup, DriverTraceCheck::NoTracer,
                        who + ": this family has no firmware tracer (it came with Connect-IB and Switch-IB)");
  if (!family.tracer->host_memory_mode || family.tracer->driver.empty())
    return failed_check(lookup, DriverTraceCheck::FifoOnly,
                        who + ": the tracer logs to its FIFO only; how a FIFO is read is not public, and no driver "
                              "prints its messages");
  lookup.source.dbdf = pci_function_dbdf(device.pci_dir());
  if (lookup.source.dbdf.empty())
    return failed_check(lookup, DriverTraceCheck::NotOnThisHost,
                        device.name() + " is not a PCI function of this host: it is not reached over PCI here, so no driver here prints its traces");
  const std::string at = device.name() + " (" + lookup.source.dbdf + ")";
  const std::string_view tracing_driver = family.tracer->driver;
  const auto driver = bound_pci_driver(device.pci_dir());
  if (!driver) return failed_check(lookup, DriverTraceCheck::NoDriver, at + " has no driver bound");
  if (*driver != tracing_driver)
    return failed_check(lookup, DriverTraceCheck::OtherDriver,
                        at + " is bound to " + *driver + ", not " + std::string(tracing_driver));
  const auto root = tracefs_root();
  const auto event = find_driver_trace_event(root);
  if (!event)
    return failed_check(lookup, DriverTraceCheck::NoEvent,
                        (root / "events/mlx5/mlx5_fw").string() + " (or fw_tracer) is absent: the loaded driver prints no "
                            "firmware traces, or tracefs is not at " + root.string() + " (OPENFLINT_TRACEFS_ROOT names another)");
  lookup.event = *event;
  OF_ASSIGN(const bool enabled, trace_event_enabled(*event));
  if (!enabled)
    return failed_check(lookup, DriverTraceCheck::EventOff,
                        "the driver's firmware-trace event is not enabled: echo 1 > " + (*event / "enable").string());
  lookup.source.trace_file = root / "trace";
  return lookup;
}

Result<DriverTraceSource> locate_driver_trace(Device& device) {
  OF_ASSIGN(DriverTraceLookup lookup, look_up_driver_trace(device));
  if (!lookup.passed()) {
    std::string why = lookup.why;
    if (lookup.no_reading_driver())
      why += ": only " + std::string(device.info().tracer->driver) + " prints the firmware's traces";
    return make_error(ErrorCode::NotSupported, why);
  }
  return lookup.source;
}

}  // namespace openflint
