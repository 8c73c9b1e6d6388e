// FabricApi: the fabric's documents, built by reports/ from what the FabricSource answers, kept briefly.
#include "web/FabricApi.h"

#include <algorithm>

#include "reports/FabricFirmwareReport.h"
#include "reports/FabricListing.h"

namespace openflint {
namespace {

std::int64_t fabric_epoch_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::int64_t fabric_epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

FabricApi::FabricApi(FabricApiOptions options, std::vector<std::string> served)
    : options_(std::move(options)), served_(std::move(served)) {}

nlohmann::json FabricApi::device_pages(const std::vector<FabricNode>& nodes) const {
  nlohmann::json pages = nlohmann::json::object();
  for (const FabricNode& node : nodes) {
    for (std::size_t i = 0; i < served_.size(); ++i)
      if (node.lid != 0 && served_[i] == node.device_name()) pages[guid_text(node.guid)] = i;
  }
  return pages;
}

Result<const FabricSweep*> FabricApi::swept(bool refresh) {
  const auto now = std::chrono::steady_clock::now();
  if (refresh || !sweep_ || now - sweep_at_ > kKeep) {
    sweep_.reset();
    OF_ASSIGN(FabricSweep sweep, options_.source->sweep());
    sweep_ = std::move(sweep);
    sweep_at_ = now;
  }
  return &*sweep_;
}

Result<nlohmann::json> FabricApi::fabric_document(bool refresh) {
  const std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (!refresh && !listing_.doc.is_null() && now - listing_.at < kKeep) return listing_.doc;
  OF_ASSIGN(const FabricSweep* kept, swept(refresh));
  const FabricSweep& sweep = *kept;
  const auto fw = options_.source->running_firmware(sweep.nodes);
  reports::FabricListingFilter everything;
  everything.check = options_.naming.topology() != nullptr;
  OF_ASSIGN(const reports::FabricListing listing, reports::make_fabric_listing(options_.naming, sweep, fw, everything));
  nlohmann::json doc = reports::listing_json(listing);
  doc["topology"] = everything.check;
  doc["swept_at"] = fabric_epoch_seconds();
  doc["device_pages"] = device_pages(sweep.nodes);
  listing_ = {doc, now};
  return doc;
}

Result<nlohmann::json> FabricApi::firmware_document(bool refresh) {
  const std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (!refresh && !firmware_.doc.is_null() && now - firmware_.at < kKeep) return firmware_.doc;
  OF_ASSIGN(const FirmwareInventory inventory, options_.source->inventory());
  nlohmann::json doc = reports::inventory_json(inventory.nodes, options_.naming, inventory.hosts);
  std::vector<FabricNode> nodes;
  for (const NodeFirmware& n : inventory.nodes) nodes.push_back(n.node);
  doc["queried_at"] = fabric_epoch_seconds();
  doc["device_pages"] = device_pages(nodes);
  // Whether the page offers updates (mst web --images DIR): how many images, by PSID.
  doc["update_images"] = options_.images ? nlohmann::json(options_.images->size()) : nlohmann::json(nullptr);
  firmware_ = {doc, now};
  return doc;
}

Result<nlohmann::json> FabricApi::health_document() {
  const std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (!health_.doc.is_null() && now - health_.at < kHealthInterval) return health_.doc;
  OF_ASSIGN(const FabricSweep* sweep, swept(false));
  OF_ASSIGN(HealthSample sample, options_.source->sample(*sweep));
  const int number = last_pass_ ? last_pass_->number + 1 : 1;
  reports::HealthPass pass = reports::make_health_pass(number, *sweep, std::move(sample),
                                                       last_pass_ ? &*last_pass_ : nullptr, options_.thresholds);
  nlohmann::json doc = reports::health_pass_json(pass, options_.naming);
  doc["ok"] = true;
  doc["readings"] = reports::health_readings_json(pass, options_.naming, options_.thresholds);
  doc["sampled_at_ms"] = fabric_epoch_ms();
  last_pass_ = std::move(pass);
  health_ = {doc, now};
  return doc;
}

Result<nlohmann::json> FabricApi::start_update(const nlohmann::json& request, const std::string& peer, WebJobs& jobs,
                                              bool read_only, const AuditLog& audit) {
  const std::string who = "web " + peer + ": ";
  const auto refuse = [&](ErrorCode code, const std::string& why) {
    if (audit) audit(who + "refused fabric update: " + why);
    return make_error(code, why);
  };
  if (read_only) return refuse(ErrorCode::PermissionDenied, "this console is read-only (mst web --read-only)");
  if (!options_.images) return refuse(ErrorCode::NotSupported, "no images to update with (mst web --fabric --images DIR)");
  if (!request.is_object() || !request.contains("nodes") || !request["nodes"].is_array() || request["nodes"].empty())
    return refuse(ErrorCode::InvalidArgument, "an update needs \"nodes\": the GUIDs of the nodes to update");
  std::vector<std::string> chosen;
  for (const auto& g : request["nodes"]) {
    if (!g.is_string()) return refuse(ErrorCode::InvalidArgument, "\"nodes\" holds GUID strings");
    chosen.push_back(g.get<std::string>());
  }
  FabricUpdateOptions options;
  options.reset = request.value("reset", false);
  options.force = request.value("force", false);
  std::vector<NodeFirmware> nodes;
  {
    const std::lock_guard lock(mutex_);
    OF_ASSIGN(const FirmwareInventory inventory, options_.source->inventory());
    for (const std::string& guid : chosen) {
      const auto it = std::find_if(inventory.nodes.begin(), inventory.nodes.end(),
                                   [&](const NodeFirmware& n) { return guid_text(n.node.guid) == guid; });
      if (it == inventory.nodes.end()) return refuse(ErrorCode::InvalidArgument, "no node " + guid + " on the fabric");
      nodes.push_back(*it);
    }
  }
  std::string names;
  for (const NodeFirmware& n : nodes) names += (names.empty() ? "" : ", ") + reports::system_cell(n.node, options_.naming);
  if (audit) audit(who + "fabric update of " + names + " started");
  auto job = jobs.start(kFabricJob, "update " + names, [this, nodes, options, who, audit](const WebJobs::Progress& progress,
                                                                                      const WebJobs::Detail& detail) mutable
                                                                                      -> Result<nlohmann::json> {
    // Each node's progress, from the burns' threads; the detail is sent when a node's stage or percent moves.
    std::mutex m;
    nlohmann::json rows = nlohmann::json::array();
    for (const NodeFirmware& n : nodes)
      rows.push_back({{"guid", guid_text(n.node.guid)}, {"system", reports::system_cell(n.node, options_.naming)},
                      {"stage", "waiting"}, {"done", 0}, {"total", 0}});
    detail({{"nodes", rows}});
    std::vector<int> percent(nodes.size(), -1);
    options.progress = [&](std::size_t i, const BurnProgress& p) {
      const std::lock_guard lock(m);
      const int now = p.total ? static_cast<int>(100 * p.done / p.total) : 0;
      if (now == percent[i] && rows[i]["stage"] == p.stage) return;
      percent[i] = now;
      rows[i]["stage"] = std::string(p.stage);
      rows[i]["done"] = p.done;
      rows[i]["total"] = p.total;
      detail({{"nodes", rows}});
    };
    progress("updating", 0, nodes.size());
    const auto start = std::chrono::steady_clock::now();
    std::vector<NodeUpdate> updates;
    {
      // The fabric's other requests wait: they share the umad ports (and the page's pictures
      // would show the nodes mid-burn). The kept listing and inventory are asked again after it.
      const std::lock_guard lock(mutex_);
      listing_.doc = nullptr;
      firmware_.doc = nullptr;
      OF_ASSIGN(updates, options_.source->update(nodes, *options_.images, options));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    {
      const std::lock_guard lock(m);
      for (std::size_t i = 0; i < updates.size(); ++i) rows[i]["stage"] = to_string(updates[i].status);
      detail({{"nodes", rows}});
    }
    progress("done", nodes.size(), nodes.size());
    for (const NodeUpdate& u : updates)
      if (audit)
        audit(who + "fabric update: " + reports::system_cell(u.before.node, options_.naming) + " " + to_string(u.status) +
              (u.message.empty() ? "" : ": " + u.message));
    return reports::update_json(updates, seconds, options_.naming);
  });
  if (!job) return refuse(job.error().code(), job.error().message());
  return nlohmann::json{{"ok", true}, {"job", *job}};
}

}  // namespace openflint
