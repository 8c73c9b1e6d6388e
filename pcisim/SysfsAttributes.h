// SysfsAttributes: the text of a served PCI function's sysfs attribute files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/PciConfigSpace.h"

namespace openflint::pcisim {

// The attribute files served next to `config`, in the order a listing shows them.
inline constexpr std::string_view kAttributeNames[] = {
    "vendor", "device", "class", "revision", "subsystem_vendor", "subsystem_device", "irq", "resource"};

// The content of attribute `name` as the kernel formats it ("0x15b3\n"; `resource`: 17 lines of
// "0x%016llx 0x%016llx 0x%016llx", start end flags, BAR0 on line 0), read from the live config
// space so ids follow the device (a recovery-mode id). nullopt for an unknown name.
[[nodiscard]] std::optional<std::string> sysfs_attribute(sim::PciConfigSpace& config, std::string_view name);

}  // namespace openflint::pcisim
