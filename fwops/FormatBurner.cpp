// FormatBurner: the format dispatch table (no switch on hw ids: the catalog names the format).
#include "fwops/FormatBurner.h"

#include <array>
#include <string>

namespace openflint {
namespace {

constexpr std::array<FormatBurner, 4> kBurners{{
    {ImageFormatId::Fs1, ImageFormat::Fs1, fs1_find_current, fs1_burn},
    {ImageFormatId::Fs2, ImageFormat::Fs2, fs2_find_current, fs2_burn},
    {ImageFormatId::Fs3, ImageFormat::Fs3, fs3_find_current, fs3_burn},
    {ImageFormatId::Fs4, ImageFormat::Fs4, fs4_find_current, fs4_burn},
}};

}  // namespace

Result<const FormatBurner*> format_burner(ImageFormatId format) {
  for (const auto& b : kBurners)
    if (b.device_format == format) return &b;
  return make_error(ErrorCode::NotSupported, "no burner for image format " + std::string(to_string(format)));
}

}  // namespace openflint
