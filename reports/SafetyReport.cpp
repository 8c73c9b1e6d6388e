// SafetyReport: one JSON object per safety fact: its value (true, false or "unknown"), what answered, and why.
#include "reports/SafetyReport.h"

#include "reports/DeviceReport.h"

namespace openflint::reports {
namespace {

nlohmann::json safety_fact_json(const SafetyFact& f) {
  nlohmann::json value = f.value == Fact::Unknown ? nlohmann::json("unknown") : nlohmann::json(f.value == Fact::Yes);
  return {{"value", std::move(value)}, {"source", f.source}, {"detail", f.detail}};
}

}  // namespace

nlohmann::json safety_json(const SafetyFacts& facts) {
  return {{"dual_image", safety_fact_json(facts.dual_image)},
          {"self_recovery", safety_fact_json(facts.self_recovery)},
          {"update_through_firmware", safety_fact_json(facts.update_through_firmware)},
          {"needs_activation", safety_fact_json(facts.needs_activation)},
          {"signed_images_required", safety_fact_json(facts.signed_images_required)}};
}

nlohmann::json device_query_with_safety_json(Device& device, const DeviceQuery& query) {
  nlohmann::json doc = device_query_json(device.name(), device.info(), query);
  doc["safety"] = safety_json(derive_safety_facts(device, query));
  return doc;
}

}  // namespace openflint::reports
