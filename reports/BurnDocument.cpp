// BurnDocument: a burn's identity line, preflight and result as text and JSON.
#include "reports/BurnDocument.h"

#include <algorithm>

#include "reports/ImageReport.h"

namespace openflint::reports {
namespace {

std::string uid_list(const std::vector<std::uint64_t>& uids, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < std::min(to, uids.size()); ++i) out += (out.empty() ? "" : " ") + hex(uids[i], 16);
  return out;
}

nlohmann::json uid_range_json(const std::optional<UidRange>& u) {
  return u ? nlohmann::json{{"base", hex(u->base, 16)}, {"count", u->count}} : nlohmann::json(nullptr);
}

nlohmann::json optional_version(const std::optional<ImageQuery>& q) {
  return q && q->fw_version ? nlohmann::json(version_text(q)) : nlohmann::json(nullptr);
}

}  // namespace

std::string version_text(const std::optional<ImageQuery>& q) {
  return q && q->fw_version ? q->fw_version->to_string() : "N/A";
}

std::string identity_text(const IdentityPlan& id) {
  std::string text = std::string("GUIDs/MACs from the ") + to_string(id.uids_from) + ": ";
  if (!id.uids.empty()) {
    text += "GUIDs " + uid_list(id.uids, 0, id.guid_count);
    if (id.uids.size() > id.guid_count) text += ", MACs " + uid_list(id.uids, id.guid_count, id.uids.size());
  } else {
    text += "base GUID " + (id.base_guid ? hex(id.base_guid->base, 16) : std::string("N/A")) + ", base MAC " +
            (id.base_mac ? hex(id.base_mac->base, 12) : std::string("N/A"));
  }
  return text + "; VSD from the " + to_string(id.vsd_from) + ": \"" + id.vsd + "\"";
}

nlohmann::json identity_json(const IdentityPlan& id) {
  std::vector<std::string> uids;
  for (auto u : id.uids) uids.push_back(hex(u, 16));
  const auto guids_end = uids.begin() + static_cast<long>(std::min(id.guid_count, uids.size()));
  return {{"uids_from", to_string(id.uids_from)}, {"vsd_from", to_string(id.vsd_from)},
          {"guids", std::vector<std::string>(uids.begin(), guids_end)},
          {"macs", std::vector<std::string>(guids_end, uids.end())},
          {"base_guid", uid_range_json(id.base_guid)}, {"base_mac", uid_range_json(id.base_mac)}, {"vsd", id.vsd},
          {"device_data_from_image", id.write_image_device_data}};
}

nlohmann::json preflight_json(const BurnPreflight& pre) {
  const char* order = pre.version_order < 0 ? "older" : pre.version_order == 0 ? "same" : "newer";
  return {{"current_fw_version", optional_version(pre.current)},
          {"new_fw_version", version_text(pre.incoming)},
          {"version_order", pre.current ? nlohmann::json(order) : nlohmann::json(nullptr)},
          {"current_psid", pre.current ? nlohmann::json(pre.current->psid) : nlohmann::json(nullptr)},
          {"new_psid", pre.incoming.psid},
          {"psid_changes", pre.psid_changes},
          {"identity", identity_json(pre.identity)}};
}

nlohmann::json identity_fields_json(const ImageQuery& q) {
  return {{"base_guid", uid_range_json(q.base_guid)}, {"base_mac", uid_range_json(q.base_mac)}, {"image_vsd", q.image_vsd},
          {"device_vsd", q.device_vsd}};
}

nlohmann::json burn_json(const BurnPreflight& pre, const BurnReport& r) {
  return {{"ok", true},
          {"previous_fw_version", optional_version(pre.current)},
          {"new_fw_version", version_text(pre.incoming)},
          {"new_copy_address", hex(r.new_copy_address)},
          {"sectors_erased", r.sectors_erased},
          {"sectors_unchanged", r.sectors_unchanged},
          {"sectors_probed", r.sectors_probed},
          {"pages_programmed", r.pages_programmed},
          {"bytes_programmed", r.bytes_programmed},
          {"path", r.through_firmware ? "firmware" : "flash gateway"},
          {"identity", identity_json(pre.identity)}};
}

}  // namespace openflint::reports
