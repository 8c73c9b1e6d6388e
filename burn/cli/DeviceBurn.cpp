// DeviceBurn: sim:PATH → SimDevice::load_state, burn_image(), save_state.
#include "burn/cli/DeviceBurn.h"

#include "sim/SimDevice.h"

namespace openflint::burn::cli {

Result<BurnReport> burn_to_device(const std::string& device, Bytes image, const BurnOptions& options) {
  constexpr std::string_view kSim = "sim:";
  if (!device.starts_with(kSim))
    return make_error(ErrorCode::NotSupported,
                      "device '" + device + "': fwburn opens simulated devices (sim:PATH) only");
  const std::string path = device.substr(kSim.size());
  auto sim = sim::SimDevice::load_state(path);
  if (!sim) return make_error(std::move(sim).error().with_context("opening " + device));
  auto report = burn_image(**sim, (*sim)->info(), image, options);
  // The flash may have changed even when the burn failed half way: keep what it now holds.
  auto saved = (*sim)->save_state(path);
  if (!report) return make_error(std::move(report).error().with_context("burning " + device));
  if (!saved) return make_error(std::move(saved).error().with_context("saving " + device));
  return report;
}

}  // namespace openflint::burn::cli
