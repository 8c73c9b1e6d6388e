// BurnDocument: a burn's documents — the identity line every burn shows before it writes, the
// preflight a front end shows before it asks, and the `flint burn --json` document after it.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "fwops/BurnTypes.h"

namespace openflint::reports {

// "FW 12.28.2006", or "N/A" when the query (or its version) is missing.
[[nodiscard]] std::string version_text(const std::optional<ImageQuery>& query);
// One line: which GUIDs/MACs/VSD the board will have, and where they come from.
[[nodiscard]] std::string identity_text(const IdentityPlan& identity);
// {"uids_from", "vsd_from", "guids", "macs", "base_guid", "base_mac", "vsd", "device_data_from_image"}.
[[nodiscard]] nlohmann::json identity_json(const IdentityPlan& identity);
// What the burn will do, before it writes: {"current_fw_version", "new_fw_version", "version_order"
// ("older"/"same"/"newer"), "psid_changes", "current_psid", "new_psid", "identity"}.
[[nodiscard]] nlohmann::json preflight_json(const BurnPreflight& preflight);
// {"base_guid", "base_mac", "image_vsd", "device_vsd"} of an image: what `flint sg`/`sv --json` add.
[[nodiscard]] nlohmann::json identity_fields_json(const ImageQuery& query);
// The `flint burn --json` document of a finished burn.
[[nodiscard]] nlohmann::json burn_json(const BurnPreflight& preflight, const BurnReport& report);

}  // namespace openflint::reports
