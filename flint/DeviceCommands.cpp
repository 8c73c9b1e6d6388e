// DeviceCommands: query, verify and reset on the device given with -d.
#include <iostream>

#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/RunningFirmwareReport.h"
#include "flint/Commands.h"
#include "flint/DeviceAccess.h"
#include "fwops/DeviceFlash.h"
#include "reports/DeviceReport.h"
#include "reports/SafetyReport.h"
#include "fwops/SafetyFacts.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/DeviceQuery.h"
#include "fwops/DeviceVerify.h"
#include "flint/Progress.h"
#include "reports/ImageReport.h"
#include "image/FirmwareImage.h"

namespace openflint::flint {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

// The query document with the device's safety facts (reports/SafetyReport.h): a few more register
// reads, made for --json only, so the text query asks the device exactly what it always asked.
nlohmann::json query_document(Device& device, const DeviceQuery& query) {
  return device_query_with_safety_json(device, query);
}

int query_opened(const Options& options, Device& device) {
  auto query = query_device(device, options.ocr);  // errors name the device
  if (!query) return report_error(options, query.error());
  if (!query->image) {
    const Error error = no_image_error(device.name(), *query);
    if (options.json) {
      cli::print_json(query_document(device, *query));
    } else {
      print_running(std::cout, query->running);
      print_device(std::cout, device.info(), query->chip, query->jedec_id);
    }
    std::cerr << "-E- " << error.message() << '\n';
    return cli::exit_code_for(error.code());
  }
  if (options.json) {
    cli::print_json(query_document(device, *query));
  } else {
    print_query(std::cout, *query->image);
    print_running(std::cout, query->running);
    print_device(std::cout, device.info(), query->chip, query->jedec_id);
  }
  return cli::kOk;
}

int verify_opened(const Options& options, Device& device) {
  auto verified = verify_device(device, options.ocr, progress_line(options, "Reading flash"));
  if (!verified) return report_error(options, verified.error());
  const VerifyReport& report = verified->report;
  const bool ok = verified->ok;
  if (options.json) {
    cli::print_json(verify_document(report, ok));
  } else {
    print_verify(std::cout, report);
  }
  return ok ? cli::kOk : cli::kFailed;
}

}  // namespace

int run_device_query(const Options& options) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  return finish(options, *device, query_opened(options, *device));
}

int run_device_verify(const Options& options) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  return finish(options, *device, verify_opened(options, *device));
}

int run_device_reset(const Options& options) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  // The one safe reset (fwops/registers/AdapterReset, as `mst reset`): a bound driver refuses it, PCI
  // config space is saved and restored around it.
  auto plan = plan_reset(*device, ResetOptions{});
  if (!plan) return finish(options, *device, report_error(options, plan.error()));
  auto reset = run_reset(*device, *plan, ResetOptions{});
  if (!reset) {
    return finish(options, *device, report_error(options, reset.error().with_context("resetting " + device->name())));
  }
  const auto& running = reset->running_after;
  if (options.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"running", cli::running_firmware_json(running)}});
  } else {
    std::cout << "-I- " << device->name() << " was reset\n";
    print_running(std::cout, running);
  }
  return finish(options, *device, cli::kOk);
}

}  // namespace openflint::flint
