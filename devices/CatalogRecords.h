// CatalogRecords: the per-family record tables DeviceCatalog.cpp stitches together (internal).
#pragma once

#include <span>

#include "devices/DeviceInfo.h"

namespace openflint::catalog {

[[nodiscard]] std::span<const DeviceInfo> hca_records();
[[nodiscard]] std::span<const DeviceInfo> switch_records();

}  // namespace openflint::catalog
