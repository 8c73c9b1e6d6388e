// FirmwareTracer: an opened device's firmware tracer — capabilities, string DB, ownership probe, trace mask.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "devices/FirmwareTracerInfo.h"
#include "fwops/Device.h"
#include "image/TraceStringDb.h"
#include "fwops/trace/TracerOwnership.h"
#include "mtcr/registers/MtrcCapRegister.h"

namespace openflint {

// A trace level as mstfwtrace -l takes it: 0-3, or DEBUG, INFO, WARNING, ERROR (any case).
// InvalidArgument naming the accepted forms.
[[nodiscard]] Result<std::uint8_t> parse_trace_level(std::string_view text);
// "DEBUG", "INFO", "WARNING", "ERROR" for 0-3.
[[nodiscard]] std::string_view trace_level_name(std::uint8_t level);

// Works over whatever transport the device has: the registers through Device::register_port()
// (PCI ICMD or tools HCR, in-band MADs, a bus server, the simulator), SET_ITRACE through
// Device::firmware_command (PCI, sim). The device must outlive it.
class FirmwareTracer {
 public:
  // NotSupported, naming the device and its family, when the catalog gives the family no tracer
  // (DeviceInfo::tracer null), the device has no register channel, or the running firmware has
  // none (query_tracer_capabilities: MCAM, MTRC_CAP).
  [[nodiscard]] static Result<FirmwareTracer> open(Device& device);

  [[nodiscard]] const MtrcCapRegister& capabilities() const { return capabilities_; }
  [[nodiscard]] const FirmwareTracerInfo& info() const { return *info_; }
  // Whether traces go to a host buffer the driver gives (the mode the mlx5 driver uses): the
  // catalog's host_memory_mode and MTRC_CAP.trace_to_memory. False: FIFO only, whose reading is
  // not public (fw-trace-and-fwctl.md A5).
  [[nodiscard]] bool host_memory_mode() const { return info_->host_memory_mode && capabilities_.trace_to_memory; }

  // The whole string DB (read_trace_string_db).
  [[nodiscard]] Result<TraceStringDb> read_strings();
  // Whether anybody owns the tracer (probe_tracer_owner: ownership granted is given back at once).
  [[nodiscard]] Result<TracerOwner> probe_owner();
  // ICMD SET_ITRACE: the classes in `mask` at `level` (0-3) and above. The firmware keeps it
  // until it is set again or the device resets; it cannot be read back.
  [[nodiscard]] Result<void> set_trace_mask(std::uint32_t mask, std::uint8_t level);

 private:
  FirmwareTracer(Device& device, RegisterPort& port, const FirmwareTracerInfo& info, MtrcCapRegister capabilities)
      : device_(&device), port_(&port), info_(&info), capabilities_(capabilities) {}

  Device* device_;
  RegisterPort* port_;  // the device's, kept by it
  const FirmwareTracerInfo* info_;
  MtrcCapRegister capabilities_;
};

}  // namespace openflint
