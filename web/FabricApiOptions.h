// FabricApiOptions: what `mst web --fabric` serves the Fabric page from — the fabric (a
// FabricSource), the administrator's names and topology file, and the health thresholds.
#pragma once

#include <memory>

#include "fabric/HealthThresholds.h"
#include "fabric/SystemNaming.h"
#include "web/FabricSource.h"

namespace openflint {

struct FabricApiOptions {
  std::shared_ptr<FabricSource> source;  // live_fabric_source(...), or a test's
  SystemNaming naming;                   // --names, -t/--topology (with a topology: the cabling check)
  HealthThresholds thresholds = HealthThresholds::defaults();  // --thresholds, --threshold
};

}  // namespace openflint
