// ResetDocument: a reset's plan and report as JSON.
#include "reports/ResetDocument.h"

#include "cli/RunningFirmwareReport.h"
#include "mtcr/registers/MfrlRegister.h"

namespace openflint::reports {

nlohmann::json reset_plan_json(const ResetPlan& plan) {
  using nlohmann::json;
  json functions = json::array();
  for (const auto& f : plan.functions)
    functions.push_back({{"bdf", f.address.to_string()}, {"driver", f.driver.empty() ? json(nullptr) : json(f.driver)}});
  json blockers = json::array();
  for (const auto& b : plan.blockers) blockers.push_back(b.why);
  json firmware = nullptr;
  if (plan.firmware_reset)
    firmware = {{"register", "MFRL"}, {"level", plan.firmware_reset->level},
                {"supported_levels", plan.firmware_reset->supported_levels},
                {"state", std::string(mfrl_state_name(plan.firmware_reset->state))}};
  return {{"device", plan.device}, {"device_type", plan.device_type}, {"method", plan.method},
          {"resets_now", plan.resets_now}, {"firmware_reset", firmware},
          {"pci_reset_method", plan.pci_reset_method.empty() ? json(nullptr) : json(plan.pci_reset_method)},
          {"functions", functions}, {"running_before", cli::running_firmware_json(plan.running_before)}, {"blockers", blockers},
          {"by_server", plan.by_server},
          {"server_refusal", plan.server_refusal.empty() ? json(nullptr) : json(plan.server_refusal)}};
}

nlohmann::json reset_report_json(const ResetReport& report) {
  return {{"ok", true}, {"plan", reset_plan_json(report.plan)}, {"running_after", cli::running_firmware_json(report.running_after)},
          {"restored", report.restored}, {"took_ms", report.took.count()}};
}

}  // namespace openflint::reports
