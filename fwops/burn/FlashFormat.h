// FlashFormat: one image format's flash steps (find the booted copy, burn failsafe), looked up by the device's format.
#pragma once

#include <optional>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "fwops/burn/FlashSession.h"
#include "image/ImageFormat.h"

namespace openflint {

struct FlashFormat {
  ImageFormat image_format;
  // The copy the device boots now (its bytes, as much as `scope` says, loaded into
  // session.flash()); nullopt when no copy on flash is bootable.
  Result<std::optional<CurrentCopy>> (*find_current)(FlashSession& session, CopyScope scope);
  // Burns `image` (a file of this format) following the format's failsafe order, or in place
  // with options().failsafe == false.
  Result<void> (*burn)(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current);
};

// NotSupported for a format without a row.
[[nodiscard]] Result<const FlashFormat*> flash_format(ImageFormat format);

// Per-format entry points (fwops/burn/Fs1Burn.cpp, Fs2Burn.cpp, Fs34Burn.cpp).
Result<std::optional<CurrentCopy>> fs1_find_current(FlashSession& session, CopyScope scope);
Result<void> fs1_burn(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current);
Result<std::optional<CurrentCopy>> fs2_find_current(FlashSession& session, CopyScope scope);
Result<void> fs2_burn(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current);
Result<std::optional<CurrentCopy>> fs3_find_current(FlashSession& session, CopyScope scope);
Result<void> fs3_burn(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current);
Result<std::optional<CurrentCopy>> fs4_find_current(FlashSession& session, CopyScope scope);
Result<void> fs4_burn(FlashSession& session, Bytes image, const std::optional<CurrentCopy>& current);

// The copy in `image` (FS3/FS4) as a running firmware's component update takes it (mstflint
// FwExtract4MBImage with its magic and device-data entries masked): from its header to its last
// section, the magic pattern 0xFF (the firmware writes it last), FS3 device-data ITOC entries
// 0xFF (the firmware fills them with the board's). NotSupported for other formats.
[[nodiscard]] Result<std::vector<std::uint8_t>> firmware_component(ImageFormat format, Bytes image,
                                                                   std::uint64_t flash_size);

}  // namespace openflint
