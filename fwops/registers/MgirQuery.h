// MgirQuery: the running firmware read from the MGIR register through a register port.
#pragma once

#include <optional>

#include "devices/DeviceInfo.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// MGIR through an open register port (ICMD, the tools HCR, vendor MADs, a bus server's register
// channel: whichever the device's transport opens); nullopt when it does not answer.
[[nodiscard]] std::optional<RunningFirmware> query_running(RegisterPort& port, const DeviceInfo& info);

}  // namespace openflint
