// FlashFormat: the format dispatch table (no switch on hw ids: the catalog names the format).
#include "fwops/burn/FlashFormat.h"

#include <array>
#include <string>

namespace openflint {
namespace {

constexpr std::array<FlashFormat, 4> kBurners{{
    {ImageFormat::Fs1, fs1_find_current, fs1_burn},
    {ImageFormat::Fs2, fs2_find_current, fs2_burn},
    {ImageFormat::Fs3, fs3_find_current, fs3_burn},
    {ImageFormat::Fs4, fs4_find_current, fs4_burn},
}};

}  // namespace

Result<const FlashFormat*> flash_format(ImageFormat format) {
  for (const auto& b : kBurners)
    if (b.image_format == format) return &b;
  return make_error(ErrorCode::NotSupported, "no burner for image format " + std::string(to_string(format)));
}

}  // namespace openflint
