// BootGuard: whether raw flash edits would take the last bootable copy away from a device that boots now.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "flash/FlashDriver.h"
#include "fwops/edit/FlashEdit.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

struct BootImpact {
  std::optional<std::uint64_t> boots_now;    // the copy the boot ROM starts today; nullopt = none
  std::optional<std::uint64_t> boots_after;  // the copy it would start after the edits
  // Asked before writing: a device that boots now would not boot after the edits.
  [[nodiscard]] bool loses_last_copy() const { return boots_now.has_value() && !boots_after.has_value(); }
};

// Applies `edits` to the flash as read (image/BootCopy.h rule before and after; no writes).
// Fast transports read the whole flash; remote ones only the current copy, so when the edits
// break it the answer is "no copy after" without reading the other candidates (ask, to be safe).
[[nodiscard]] Result<BootImpact> boot_impact(RegisterAccess& access, const DeviceInfo& info, FlashDriver& driver,
                                             std::span<const FlashEdit> edits);

}  // namespace openflint
