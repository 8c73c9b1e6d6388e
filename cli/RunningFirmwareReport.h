// RunningFirmwareReport: the running firmware as every tool shows it — one line of text, one JSON object.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "fwops/registers/RunningFirmware.h"

namespace openflint::cli {

// "16.35.2000 (PSID MT_2190110032)"; "none: flash recovery mode ..." when no image booted;
// "unknown ..." when the transport cannot tell (nullopt: e.g. a PCI device without ICMD).
[[nodiscard]] std::string running_firmware_text(const std::optional<RunningFirmware>& running);

// {"recovery", "booted_copy", "fw_version", "psid"}, each null when unknown; null for nullopt.
[[nodiscard]] nlohmann::json running_firmware_json(const std::optional<RunningFirmware>& running);

}  // namespace openflint::cli
