// NvConfigPlan: parses and reads a set of configuration assignments before anything is written.
#include "fwops/registers/NvConfigPlan.h"

namespace openflint {

Result<std::vector<NvPlannedSet>> plan_nv_set(NvConfig& config, std::span<const std::string> assignments) {
  std::vector<NvAssignment> asked;
  std::vector<NvSetting> settings;
  for (const std::string& text : assignments) {
    OF_ASSIGN(const NvAssignment assignment, config.parse_assignment(text));
    asked.push_back(assignment);
    settings.push_back(assignment.setting);
  }
  OF_ASSIGN(const std::vector<NvReading> rows, config.query(settings));
  std::vector<NvPlannedSet> plan;
  for (std::size_t i = 0; i < asked.size(); ++i) plan.push_back({asked[i], rows[i]});
  return plan;
}

std::vector<NvAssignment> nv_changes(const std::vector<NvPlannedSet>& plan) {
  std::vector<NvAssignment> out;
  for (const NvPlannedSet& p : plan)
    if (p.changes()) out.push_back(p.assignment);
  return out;
}

}  // namespace openflint
