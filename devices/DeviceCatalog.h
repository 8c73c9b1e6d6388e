// DeviceCatalog: lookups over every known DeviceInfo record (data lives in catalog_*.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/Result.h"
#include "devices/DeviceInfo.h"

namespace openflint {

[[nodiscard]] std::span<const DeviceInfo> all_devices();

// By CR-space hw id; `revision` picks between records that share an id (ConnectX A0/B0).
[[nodiscard]] Result<const DeviceInfo*> find_device_by_hw_id(std::uint16_t hw_id,
                                                             std::uint8_t revision = 0);
// By PCI device id, normal or recovery mode; `recovery` tells which one matched.
[[nodiscard]] Result<const DeviceInfo*> find_device_by_pci_id(std::uint16_t pci_device_id,
                                                              bool* recovery = nullptr);
[[nodiscard]] Result<const DeviceInfo*> find_device_by_sim_model(std::string_view model);

}  // namespace openflint
