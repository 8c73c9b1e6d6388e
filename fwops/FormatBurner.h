// FormatBurner: one image format's burn steps, looked up in a table by the device's format.
#pragma once

#include <optional>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "fwops/BurnSession.h"
#include "image/ImageFormat.h"

namespace openflint {

struct FormatBurner {
  ImageFormat image_format;
  // The copy the device boots now (its bytes, as much as `scope` says, loaded into
  // session.flash()); nullopt when no copy on flash is bootable.
  Result<std::optional<CurrentCopy>> (*find_current)(BurnSession& session, CopyScope scope);
  // Burns `image` (a file of this format) following the format's failsafe order, or in place
  // with options().failsafe == false.
  Result<void> (*burn)(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current);
};

// NotSupported for a format without a row.
[[nodiscard]] Result<const FormatBurner*> format_burner(ImageFormat format);

// Per-format entry points (fwops/Fs1Burn.cpp, Fs2Burn.cpp, Fs34Burn.cpp).
Result<std::optional<CurrentCopy>> fs1_find_current(BurnSession& session, CopyScope scope);
Result<void> fs1_burn(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current);
Result<std::optional<CurrentCopy>> fs2_find_current(BurnSession& session, CopyScope scope);
Result<void> fs2_burn(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current);
Result<std::optional<CurrentCopy>> fs3_find_current(BurnSession& session, CopyScope scope);
Result<void> fs3_burn(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current);
Result<std::optional<CurrentCopy>> fs4_find_current(BurnSession& session, CopyScope scope);
Result<void> fs4_burn(BurnSession& session, Bytes image, const std::optional<CurrentCopy>& current);

}  // namespace openflint
