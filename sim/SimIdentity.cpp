// SimIdentity: per-device GUIDs through the image patcher.
#include "sim/SimIdentity.h"

#include "image/ImagePatch.h"

namespace openflint::sim {

Result<void> write_flash_guids(SimDevice& device, std::uint64_t base_guid, std::size_t image_bytes) {
  const auto flash = device.flash().contents();
  const std::size_t n = image_bytes == 0 || image_bytes > flash.size() ? flash.size() : image_bytes;
  OF_ASSIGN(const auto patched, set_guids(flash.first(n), GuidSettings{.base_guid = base_guid, .base_mac = std::nullopt}));
  return device.flash().set_prefix(patched);
}

}  // namespace openflint::sim
