// FabricApiOptions: what `mst web --fabric` serves the Fabric page from — the fabric (a
// FabricSource), the administrator's names and topology file, and the health thresholds.
#pragma once

#include <memory>

#include "fabric/HealthThresholds.h"
#include "fabric/ImageSet.h"
#include "fabric/SystemNaming.h"
#include "web/FabricSource.h"

namespace openflint {

struct FabricApiOptions {
  std::shared_ptr<FabricSource> source;  // live_fabric_source(...), or a test's
  SystemNaming naming;                   // --names, -t/--topology (with a topology: the cabling check)
  HealthThresholds thresholds = HealthThresholds::defaults();  // --thresholds, --threshold
  // --images DIR: the images an update from the page burns (by PSID); null: updates not offered.
  std::shared_ptr<const ImageSet> images;
};

}  // namespace openflint
