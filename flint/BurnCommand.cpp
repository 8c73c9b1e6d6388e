// BurnCommand: `flint -d DEVICE -i IMAGE burn` over fwops' failsafe burner (preflight, questions, burn).
#include <iostream>
#include <string>

#include "cli/Confirm.h"
#include "cli/ExitCode.h"
#include "core/HexString.h"
#include "flint/Commands.h"
#include "flint/DeviceAccess.h"
#include "flint/ImageSource.h"
#include "flint/Progress.h"
#include "flint/Report.h"
#include "fwops/FailsafeBurner.h"

namespace openflint::cli {
namespace {

std::string version_text(const std::optional<ImageQuery>& q) {
  return q && q->fw_version ? q->fw_version->to_string() : "N/A";
}

std::string hw_ids_text(const ImageQuery& q) {
  std::string ids;
  for (auto id : q.supported_hw_ids) ids += (ids.empty() ? "" : ", ") + hex_string(id);
  return ids.empty() ? "none listed" : ids;
}

// The refusals that need no question: wrong device, PSID change without the flag.
Result<void> check_refusals(const Options& options, const Device& device, const BurnPreflight& pre) {
  if (!pre.hw_id_supported) {
    return make_error(ErrorCode::Mismatch, "the image is for other devices (hw ids " + hw_ids_text(pre.incoming) +
                                               "); " + device.name() + " is a " + std::string(device.info().name) +
                                               " (hw id " + hex_string(device.info().hw_id) + ")");
  }
  if (pre.psid_changes && !options.allow_psid_change) {
    return make_error(ErrorCode::InvalidArgument,
                      "the image's PSID " + pre.incoming.psid + " differs from the device's " +
                          (pre.current ? pre.current->psid : std::string("(none)")) +
                          ": rerun with --allow_psid_change if this board really should take it");
  }
  return {};
}

// Every burn is a question (as in mstflint): -y answers it, and without a terminal the answer
// is "no" (cli/Confirm.h). A downgrade or a re-burn of the same version says so in the question.
bool confirm_burn(const Options& options, const BurnPreflight& pre) {
  std::string question = "Burn FW " + version_text(pre.incoming) + " over the flash's " + version_text(pre.current) + "?";
  if (pre.current && pre.version_order <= 0) {
    question = "The image's FW " + version_text(pre.incoming) + " is " +
               (pre.version_order == 0 ? "the same as" : "older than") + " the flash's " +
               version_text(pre.current) + ". Burn anyway?";
  }
  return confirm(question, ConfirmPolicy{options.yes, options.no});
}

nlohmann::json burn_json(const BurnPreflight& pre, const BurnReport& r) {
  return {{"ok", true},
          {"previous_fw_version", pre.current && pre.current->fw_version ? nlohmann::json(version_text(pre.current))
                                                                         : nlohmann::json(nullptr)},
          {"new_fw_version", version_text(pre.incoming)},
          {"new_copy_address", hex(r.new_copy_address)},
          {"sectors_erased", r.sectors_erased},
          {"sectors_unchanged", r.sectors_unchanged},
          {"sectors_probed", r.sectors_probed},
          {"pages_programmed", r.pages_programmed},
          {"bytes_programmed", r.bytes_programmed}};
}

BurnOptions burn_options(const Options& options) {
  BurnOptions b;
  b.failsafe = !options.nofs;
  b.allow_psid_change = options.allow_psid_change;
  auto line = progress_line(options, "Burning");
  if (line) b.progress = [line](const BurnProgress& p) { line(p.done, p.total); };
  return b;
}

int burn_opened(const Options& options, Device& device, Bytes image) {
  {
    auto flash = open_flash(device);  // finishes an interrupted ww/wb first; released before the burn
    if (!flash) return report_error(options, flash.error());
  }
  // One pass: the burner reads and compares the flash, asks through `decide`, then burns.
  std::optional<BurnPreflight> pre;
  bool declined = false;
  bool refused = false;
  BurnOptions b = burn_options(options);
  b.decide = [&](const BurnPreflight& p) -> Result<bool> {
    pre = p;
    if (auto r = check_refusals(options, device, p); !r) {
      refused = true;
      return make_error(std::move(r).error().with_context("burn refused"));
    }
    declined = !confirm_burn(options, p);
    return !declined;
  };
  auto report = burn_image(device.access(), device.info(), image, b);
  if (declined) {
    if (options.json) std::cout << error_json(Error(ErrorCode::InvalidArgument, "burn declined")).dump(2) << '\n';
    return kDeclined;
  }
  if (!report) {
    if (refused) return report_error(options, report.error());
    if (!pre) return report_error(options, report.error().with_context(device.name()));
    return report_error(options, report.error().with_context("burning " + device.name()));
  }
  if (options.json) {
    std::cout << burn_json(*pre, *report).dump(2) << '\n';
  } else {
    std::cout << "-I- Burned FW " << version_text(pre->incoming) << " (was " << version_text(pre->current)
              << ") at " << hex(report->new_copy_address) << "; it runs after 'flint -d " << device.name()
              << " reset'\n";
  }
  return kOk;
}

}  // namespace

int run_burn(const Options& options) {
  auto source = ImageSource::open(options);
  if (!source) return report_error(options, source.error());
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  return finish(options, *device, burn_opened(options, *device, source->bytes()));
}

}  // namespace openflint::cli
