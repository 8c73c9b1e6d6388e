// Transports: each transport's entries in the opener table (fwops/DeviceOpener.cpp kTransports).
#pragma once

#include <string_view>

#include "core/Result.h"
#include "fwops/Device.h"

// One pair per file of fwops/transports/: whether a device name is of that transport's forms, and
// opening it (a Device over the transport, identified through the catalog). A new transport adds
// its file, its pair here and its row to kTransports.
namespace openflint::transports {

[[nodiscard]] bool sim_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_sim(std::string_view name, const DeviceOpenOptions& options);

[[nodiscard]] bool remote_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_remote(std::string_view name, const DeviceOpenOptions& options);

[[nodiscard]] bool pci_matches(std::string_view name, const DeviceOpenOptions& options);
// open_pci_device (fwops/Device.h) opens.

[[nodiscard]] bool inband_matches(std::string_view name, const DeviceOpenOptions& options);
[[nodiscard]] Result<Device> open_inband(std::string_view name, const DeviceOpenOptions& options);

}  // namespace openflint::transports
