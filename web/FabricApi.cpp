// FabricApi: the fabric's documents, built by reports/ from what the FabricSource answers, kept briefly.
#include "web/FabricApi.h"

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

}  // namespace openflint
