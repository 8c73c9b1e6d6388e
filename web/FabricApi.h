// FabricApi: the documents behind the web console's Fabric page — each the one a fabric CLI prints
// with --json, built by the same reports/ calls: the listing and cabling check (`ibls -t FILE -e
// --json`), the firmware inventory (`ibfwmgr list --json`) and a health pass (one line of `ibmon
// --watch --json`), plus what the page needs beside them (when swept, which nodes have a device
// page, the readings behind the health pass). A sweep takes a while, so the sweep, the listing and
// the inventory are kept kKeep (or asked again with refresh); fabric requests run one at a time.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Result.h"
#include "remote/BusSession.h"
#include "reports/FabricHealthReport.h"
#include "web/WebJobs.h"
#include "web/FabricApiOptions.h"

namespace openflint {

class FabricApi {
 public:
  // `served`: the device names the console serves (a node whose lid-N is one links to its page).
  FabricApi(FabricApiOptions options, std::vector<std::string> served);

  // ibls's document ({"ok", "systems", "cables"}, "check" with a topology file) and "topology"
  // (whether one was given), "swept_at" (seconds since the epoch), "device_pages" ({GUID: index}).
  [[nodiscard]] Result<nlohmann::json> fabric_document(bool refresh = false);
  // ibfwmgr list's document ({"ok", "nodes", "hosts"}), "queried_at", "device_pages".
  [[nodiscard]] Result<nlohmann::json> firmware_document(bool refresh = false);
  // A new health pass (at most one per kHealthInterval; a request sooner gets the last): ibmon's
  // pass document with "ok", judged against the previous pass as ibmon --watch does, and
  // "readings" (reports::health_readings_json), "sampled_at_ms". The counters and temperatures
  // are read at each pass; the nodes, cables and port states are the kept sweep's (kKeep), as a
  // sweep of a large fabric takes far longer than a poll's interval.
  [[nodiscard]] Result<nlohmann::json> health_document();

  // {"nodes": ["0x<node GUID>", ...], "reset"?, "force"?}: `ibfwmgr update` of those nodes (as a
  // fresh inventory finds them) with the --images set, as a job of `jobs` — one fabric update at
  // a time — whose "detail" is {"nodes": [{"guid", "system", "stage", "done", "total"}]} as the
  // burns go and whose result is the `ibfwmgr update --json` document. PermissionDenied when
  // `read_only`, NotSupported without --images, InvalidArgument for no or unknown nodes.
  // Audited (started, refused, each node's outcome). The kept listing and inventory are forgotten.
  [[nodiscard]] Result<nlohmann::json> start_update(const nlohmann::json& request, const std::string& peer, WebJobs& jobs,
                                                    bool read_only, const AuditLog& audit);
  // WebJobs' device index of a fabric update (one at a time).
  static constexpr std::size_t kFabricJob = WebJobs::kNoDevice;

  static constexpr std::chrono::seconds kKeep{30};
  static constexpr std::chrono::milliseconds kHealthInterval{1000};

 private:
  struct Kept {
    nlohmann::json doc;  // null: not asked yet
    std::chrono::steady_clock::time_point at;
  };
  [[nodiscard]] nlohmann::json device_pages(const std::vector<FabricNode>& nodes) const;
  // The kept sweep, or a new one when it is older than kKeep or `refresh`.
  [[nodiscard]] Result<const FabricSweep*> swept(bool refresh);

  FabricApiOptions options_;
  std::vector<std::string> served_;
  std::mutex mutex_;  // one fabric request at a time (they share the umad ports)
  Kept listing_;
  Kept firmware_;
  Kept health_;
  std::optional<FabricSweep> sweep_;
  std::chrono::steady_clock::time_point sweep_at_;
  std::optional<reports::HealthPass> last_pass_;
};

}  // namespace openflint
