// RunningFirmwareReport: text and JSON for a RunningFirmware, shared by flint, mst and hcasim.
#include "cli/RunningFirmwareReport.h"

#include "core/HexString.h"

namespace openflint::cli {

std::string running_firmware_text(const std::optional<RunningFirmware>& running) {
  if (!running) return "unknown (not readable over this access method)";
  if (running->recovery) return "none: flash recovery mode (no bootable image)";
  if (!running->image || !running->image->fw_version) return "unknown version";
  std::string text = running->image->fw_version->to_string();
  if (!running->image->psid.empty()) text += " (PSID " + running->image->psid + ")";
  return text;
}

nlohmann::json running_firmware_json(const std::optional<RunningFirmware>& running) {
  if (!running) return nullptr;
  nlohmann::json j{{"recovery", running->recovery},
                   {"booted_copy", running->booted_copy ? nlohmann::json(hex_string(*running->booted_copy)) : nullptr},
                   {"fw_version", nullptr},
                   {"psid", nullptr}};
  if (running->image) {
    if (running->image->fw_version) j["fw_version"] = running->image->fw_version->to_string();
    j["psid"] = running->image->psid;
  }
  return j;
}

}  // namespace openflint::cli
