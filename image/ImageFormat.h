// ImageFormat: the firmware image layouts the toolkit understands.
#pragma once

#include <string_view>

namespace openflint {

enum class ImageFormat { Fs1, Fs2, Fs3, Fs4 };

[[nodiscard]] constexpr std::string_view to_string(ImageFormat format) {
  switch (format) {
    case ImageFormat::Fs1: return "FS1";
    case ImageFormat::Fs2: return "FS2";
    case ImageFormat::Fs3: return "FS3";
    case ImageFormat::Fs4: return "FS4";
  }
  return "unknown";
}

}  // namespace openflint
