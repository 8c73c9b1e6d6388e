// BurnCommand: `flint -d DEVICE -i IMAGE burn` over fwops' failsafe burner (preflight, questions, burn).
#include <iostream>
#include <string>

#include "cli/Confirm.h"
#include "cli/JsonOutput.h"
#include "cli/ExitCode.h"
#include "core/HexString.h"
#include "core/Interrupt.h"
#include "flint/Commands.h"
#include "flint/BurnLog.h"
#include "flint/DeviceAccess.h"
#include "fwops/DeviceBurn.h"
#include "flint/ImageSource.h"
#include "flint/Progress.h"
#include "reports/BurnDocument.h"
#include "reports/ImageReport.h"
#include "flint/UidText.h"
#include "fwops/BurnTypes.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

// Every burn is a question (as in mstflint): -y answers it, and without a terminal the answer
// is "no" (cli/Confirm.h). A downgrade or a re-burn of the same version says so in the question.
bool confirm_burn(const Options& options, const BurnPreflight& pre) {
  std::string question = "Burn FW " + version_text(pre.incoming) + " over the flash's " + version_text(pre.current) + "?";
  if (pre.current && pre.version_order <= 0) {
    question = "The image's FW " + version_text(pre.incoming) + " is " +
               (pre.version_order == 0 ? "the same as" : "older than") + " the flash's " +
               version_text(pre.current) + ". Burn anyway?";
  }
  return cli::confirm(question, cli::ConfirmPolicy{options.yes, options.no});
}

Result<std::vector<std::uint64_t>> parse_uids(const std::vector<std::string>& texts, int bits, const char* what) {
  std::vector<std::uint64_t> out;
  for (const auto& t : texts) {
    OF_ASSIGN(const std::uint64_t v, parse_uid(t, bits, what));
    out.push_back(v);
  }
  return out;
}

Result<std::optional<std::uint64_t>> parse_optional_uid(const std::string& text, int bits, const char* what) {
  if (text.empty()) return std::optional<std::uint64_t>{};
  OF_ASSIGN(const std::uint64_t v, parse_uid(text, bits, what));
  return std::optional<std::uint64_t>{v};
}

// mstflint's identity flags as fwops' IdentityChoice (the library checks combinations).
Result<IdentityChoice> identity_choice(const Options& o) {
  IdentityChoice c;
  c.use_image_guids = o.use_image_guids;
  c.use_image_vsd = o.use_image_ps;
  c.blank_guids = o.blank_guids;
  c.ignore_dev_data = o.ignore_dev_data;
  if (!o.guid.empty() && !o.uid.empty())
    return make_error(ErrorCode::InvalidArgument, "--guid and --uid cannot be combined");
  OF_ASSIGN(c.base_guid, parse_optional_uid(o.uid.empty() ? o.guid : o.uid, 64, o.uid.empty() ? "--guid" : "--uid"));
  OF_ASSIGN(c.guids, parse_uids(o.guids, 64, "--guids value"));
  OF_ASSIGN(c.base_mac, parse_optional_uid(o.mac, 48, "--mac"));
  OF_ASSIGN(c.macs, parse_uids(o.macs, 48, "--macs value"));
  if (o.vsd_given) c.vsd = o.vsd;
  return c;
}

Result<BurnOptions> burn_options(const Options& options) {
  BurnOptions b;
  OF_ASSIGN(b.identity, identity_choice(options));
  b.failsafe = !options.nofs;
  b.verify_writes = !options.no_flash_verify;
  b.allow_psid_change = options.allow_psid_change;
  b.override_firmware = options.ocr;
  auto line = progress_line(options, "Burning");
  if (line) b.progress = [line](const BurnProgress& p) { line(p.done, p.total); };
  return b;
}

int burn_opened(const Options& options, Device& device, const ImageName& image, BurnLog& log) {
  auto parsed = burn_options(options);
  if (!parsed) return report_error(options, parsed.error());
  BurnOptions b = std::move(*parsed);
  // One library call: it reads and compares the flash, refuses what no answer overrides, asks
  // through `decide`, then burns (fwops/DeviceBurn.h; the walk: docs/architecture.md).
  std::optional<BurnPreflight> pre;
  b.decide = [&](const BurnPreflight& p) -> Result<bool> {
    pre = p;
    log.line("burning FW " + version_text(p.incoming) + " (flash has " + version_text(p.current) + ") into " +
             device.name() + "; " + identity_text(p.identity));
    if (!options.json && !options.silent) std::cerr << "-I- " << identity_text(p.identity) << '\n';
    if (confirm_burn(options, p)) return true;
    OF_TRY(check_interrupted());  // Ctrl-C at the question: a stop, not an answer
    return false;                 // the library refuses it: ErrorCode::Cancelled
  };
  auto report = burn_device(device, image, b);
  if (!report && report.error().code() == ErrorCode::Cancelled) {
    log.line("declined");
    if (options.json) cli::print_json(cli::error_json(report.error()));
    return cli::kDeclined;
  }
  if (!report) {
    log.line("failed: " + report.error().message());
    return report_error(options, report.error());  // it names the device
  }
  log.line("done: FW " + version_text(pre->incoming) + " at " + hex(report->new_copy_address) + ", " +
           std::to_string(report->sectors_erased) + " sectors erased");
  if (options.json) {
    cli::print_json(burn_json(*pre, *report));
  } else if (!options.silent) {
    std::cout << "-I- Burned FW " << version_text(pre->incoming) << " (was " << version_text(pre->current) << ") "
              << (report->through_firmware ? "through the running firmware, " : "") << "at "
              << hex(report->new_copy_address) << "; it runs after 'flint -d " << device.name() << " reset'\n";
  }
  return cli::kOk;
}

}  // namespace

int run_burn(const Options& options) {
  auto log = BurnLog::open(options.log);
  if (!log) return report_error(options, log.error());
  auto image = image_name(options);  // -i is checked before the device is opened
  if (!image) {
    log->line("failed: " + image.error().message());
    return report_error(options, image.error());
  }
  auto device = open_cli_device(options);
  if (!device) {
    log->line("failed: " + device.error().message());
    return report_error(options, device.error());
  }
  return burn_opened(options, *device, *image, *log);  // burn_device saves the device (commit)
}

}  // namespace openflint::flint
