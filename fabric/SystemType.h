// SystemType: a topology file's system type as a catalog device (by part number, e.g. "MT52000", or sim model).
#pragma once

#include <string_view>

#include "core/Result.h"
#include "devices/DeviceInfo.h"

namespace openflint {

// NotFound when no catalog record has that part number or simulator model (case-insensitive).
[[nodiscard]] Result<const DeviceInfo*> find_system_type(std::string_view type);

}  // namespace openflint
