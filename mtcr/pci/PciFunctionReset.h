// PciFunctionReset: a PCI function reset through sysfs (<device dir>/reset).
#pragma once

#include <filesystem>

#include "core/Result.h"

namespace openflint {

// Writes "1" to `device_dir`/reset, which makes the kernel reset the function (FLR or a bus
// reset); the device then runs what its flash holds. NotSupported when the function has no
// reset file, PermissionDenied when the write is refused, Io otherwise.
[[nodiscard]] Result<void> reset_pci_function(const std::filesystem::path& device_dir);

}  // namespace openflint
