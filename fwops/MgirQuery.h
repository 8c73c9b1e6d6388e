// MgirQuery: the running firmware read from the MGIR register, in-band or through ICMD over PCI.
#pragma once

#include <filesystem>
#include <optional>

#include "devices/DeviceInfo.h"
#include "fwops/RunningFirmware.h"
#include "mtcr/InbandAccess.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// MGIR through an open register port (a remote device's); nullopt when it does not answer.
[[nodiscard]] std::optional<RunningFirmware> query_running(RegisterPort& port, const DeviceInfo& info);
// MGIR through vendor MADs; nullopt when the device does not answer it.
[[nodiscard]] std::optional<RunningFirmware> query_running_inband(InbandAccess& inband, const DeviceInfo& info);
// MGIR through the ICMD mailbox of the function at `pci_dir` (<sysfs root>/devices/<BDF>), or
// on a pre-VSEC part whose catalog record has one (ConnectX-3) through the tools HCR over config
// space, opened for this query only; nullopt when the function has neither or does not answer.
[[nodiscard]] std::optional<RunningFirmware> query_running_pci(const std::filesystem::path& pci_dir, const DeviceInfo& info);

}  // namespace openflint
