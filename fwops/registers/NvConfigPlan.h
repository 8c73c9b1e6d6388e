// NvConfigPlan: what `mst config set NAME=VALUE...` would change — each assignment beside the
// value it replaces; those already so are not written. mst config and the web console share it.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fwops/registers/NvConfig.h"

namespace openflint {

struct NvPlannedSet {
  NvAssignment assignment;
  NvReading before;  // the parameter as it is now
  [[nodiscard]] bool changes() const { return before.next != assignment.value; }
};

// Every "NAME=VALUE" parsed (NvConfig::parse_assignment: mstconfig's names and value words) and
// read; InvalidArgument for an unknown name or value, errors of the read as they come.
[[nodiscard]] Result<std::vector<NvPlannedSet>> plan_nv_set(NvConfig& config, std::span<const std::string> assignments);

// The assignments of `plan` that change something (what NvConfig::set is given).
[[nodiscard]] std::vector<NvAssignment> nv_changes(const std::vector<NvPlannedSet>& plan);

}  // namespace openflint
