// ConfigDocument: mst config's query and set documents.
#include "reports/ConfigDocument.h"

namespace openflint::reports {

nlohmann::json nv_value_json(const NvParameter& p, std::optional<std::uint32_t> v) {
  if (!v) return nullptr;
  return {{"value", *v}, {"text", nv_value_name(p, *v)}};
}

nlohmann::json nv_reading_json(const NvReading& r) {
  const NvParameter& p = *r.setting.parameter;
  return {{"name", r.setting.name}, {"item", std::string(r.setting.item->name)},
          {"port", r.setting.port == 0 ? nlohmann::json(nullptr) : nlohmann::json(r.setting.port)},
          {"default", nv_value_json(p, r.factory)}, {"current", nv_value_json(p, r.current)},
          {"next", nv_value_json(p, r.next)}, {"pending", r.pending()}};
}

nlohmann::json config_query_json(const std::string& device, const std::string& device_type, const NvConfig& config,
                                 const std::vector<NvReading>& rows) {
  nlohmann::json params = nlohmann::json::array();
  for (const auto& r : rows) params.push_back(nv_reading_json(r));
  return {{"ok", true}, {"device", device}, {"device_type", device_type}, {"reads_default", config.reads_factory()},
          {"reads_current", config.reads_current()}, {"parameters", params}};
}

nlohmann::json config_changes_json(const std::vector<NvPlannedSet>& plan) {
  nlohmann::json changed = nlohmann::json::array();
  for (const NvPlannedSet& s : plan) {
    if (!s.changes()) continue;
    const NvParameter& p = *s.assignment.setting.parameter;
    changed.push_back({{"name", s.assignment.setting.name}, {"old", nv_value_json(p, s.before.next)},
                       {"new", nv_value_json(p, s.assignment.value)}});
  }
  return changed;
}

}  // namespace openflint::reports
