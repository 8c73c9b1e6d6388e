// SystemType: the lookup over the catalog.
#include "fabric/SystemType.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "devices/DeviceCatalog.h"

namespace openflint {
namespace {

bool same_text(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

Result<const DeviceInfo*> find_system_type(std::string_view type) {
  for (const DeviceInfo& d : all_devices()) {
    if (same_text(d.part_number, type) || same_text(d.sim_model, type)) return &d;
  }
  return make_error(ErrorCode::NotFound, "no catalog device has part number or model " + std::string(type));
}

}  // namespace openflint
