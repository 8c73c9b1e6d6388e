// Services: what `ibadm start|stop|status` do with this host's bus server and name server (docs/ibadm.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fabric/IbadmConfig.h"

namespace openflint::ibadm {

// One service's outcome: the JSON object `--json` prints and the text line.
struct ServiceReport {
  nlohmann::json json;
  std::string line;
  bool ok = true;
};

// Starts each enabled service that is not running (a stale pid file is removed first) and waits
// until it answers; `config_path` is passed on to the name server.
[[nodiscard]] std::vector<ServiceReport> start_services(const IbadmConfig& config, const std::string& config_path);
// Stops every service that runs (SIGTERM, SIGKILL after a grace period); removes the pid files.
[[nodiscard]] std::vector<ServiceReport> stop_services(const IbadmConfig& config);
// Each service: state, pid, address, devices (bus server: L; name server: its entry count), clients.
// `ok` is false for an enabled service that does not run.
[[nodiscard]] std::vector<ServiceReport> service_statuses(const IbadmConfig& config);

}  // namespace openflint::ibadm
