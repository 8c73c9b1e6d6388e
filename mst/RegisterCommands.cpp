// RegisterCommands: `mst mread`, `mst mwrite` (CR-space dwords) and `mst dump` (the catalog's
// register ranges, lock registers left alone). The work is fwops/registers/CrSpaceWords and
// fwops/registers/RegisterDump; this file parses, prints and picks exit codes.
#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/TextArgs.h"
#include "cli/JsonOutput.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "core/HexString.h"
#include "fwops/registers/CrSpaceWords.h"
#include "fwops/Device.h"
#include "fwops/registers/RegisterDump.h"
#include "mst/Commands.h"
#include "reports/RegisterDumpReport.h"

namespace openflint::mst {
namespace {

// Options of the register commands (one runs per process).
struct RegisterArgs {
  std::string device;
  std::string address;
  std::string third;  // mread COUNT, mwrite VALUE
  std::string sysfs;
  int lock_timeout_ms = 5000;
  bool full = false;
  bool verbose = false;
};

// The fixed-width form mstregdump prints.
std::string hex8(std::uint32_t v) { return hex_dword(v); }

Result<Device> open(const RegisterArgs& a) {
  DeviceOpenOptions options;
  options.lock_timeout = std::chrono::milliseconds(a.lock_timeout_ms);
  options.sysfs_root = a.sysfs;
  return open_device(a.device, options);
}

int run_mread(const RegisterArgs& a, const Common& common) {
  auto address = cli::parse_number(a.address, "address");
  if (!address) return cli::report_error(address.error(), common.json);
  std::uint64_t count = 1;
  if (!a.third.empty()) {
    auto n = cli::parse_number(a.third, "count");
    if (!n) return cli::report_error(n.error(), common.json);
    count = *n;
  }
  auto device = open(a);
  if (!device) return cli::report_error(device.error(), common.json);
  auto words = read_cr_words(*device, *address, count);
  if (!words) return cli::report_error(words.error(), common.json);
  nlohmann::json list = nlohmann::json::array();
  std::string text;
  for (std::size_t i = 0; i < words->size(); ++i) {
    const auto at = static_cast<std::uint32_t>(*address + 4 * i);
    if (common.json) {
      list.push_back({{"address", hex8(at)}, {"value", hex8((*words)[i])}});
    } else {
      text += hex8(at) + ' ' + hex8((*words)[i]) + '\n';
    }
  }
  if (common.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"device", a.device}, {"words", list}});
  } else {
    std::cout << text;
  }
  return cli::kOk;
}

int run_mwrite(const RegisterArgs& a, const Common& common) {
  auto address = cli::parse_number(a.address, "address");
  if (!address) return cli::report_error(address.error(), common.json);
  auto value = cli::parse_number(a.third, "value");
  if (!value) return cli::report_error(value.error(), common.json);
  if (*value > 0xffffffffull)
    return cli::report_error(Error(ErrorCode::InvalidArgument, "value " + a.third + " does not fit in 32 bits"), common.json);
  auto device = open(a);
  if (!device) return cli::report_error(device.error(), common.json);
  if (auto w = write_cr_word(*device, *address, static_cast<std::uint32_t>(*value)); !w)
    return cli::report_error(w.error(), common.json);
  if (common.json) {
    cli::print_json(nlohmann::json{{"ok", true}, {"device", a.device}, {"address", hex8(static_cast<std::uint32_t>(*address))},
                                {"value", hex8(static_cast<std::uint32_t>(*value))}});
  }
  return cli::kOk;
}

int run_dump(const RegisterArgs& a, const Common& common) {
  auto device = open(a);
  if (!device) return cli::report_error(device.error(), common.json);
  const auto start = std::chrono::steady_clock::now();
  auto dump = dump_registers(device->access(), device->info(), RegisterDumpOptions{.full = a.full});
  if (!dump) return cli::report_error(dump.error().with_context(device->name()), common.json);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (common.json) {
    cli::print_json(reports::dump_json(a.device, device->info(), *dump, a.full, seconds), 1);
    return cli::kOk;
  }
  const std::string text = reports::dump_text(*dump, a.verbose);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return cli::kOk;
}

void add_device_options(CLI::App* sub, RegisterArgs& a) {
  sub->add_option("DEV", a.device, "the device (name forms: mst --help)")->required();
  sub->add_option("--sysfs", a.sysfs, "PCI sysfs root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  sub->add_option("--lock-timeout", a.lock_timeout_ms, "milliseconds to wait for a busy device (default 5000)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace

void add_register_commands(CLI::App& app, std::function<int()>& run, const Common& common) {
  static RegisterArgs a;  // outlives parsing: `run` is called after this returns
  CLI::App* mread = app.add_subcommand("mread", "read CR-space dwords: one \"0xADDR 0xVALUE\" line each");
  add_device_options(mread, a);
  mread->add_option("ADDR", a.address, "dword-aligned CR-space address (0x... or decimal)")->required();
  mread->add_option("COUNT", a.third, "number of dwords (default 1)");
  mread->callback([&run, &common] { run = [&common] { return run_mread(a, common); }; });

  CLI::App* mwrite = app.add_subcommand("mwrite", "write one CR-space dword (a sim:PATH device is saved)");
  add_device_options(mwrite, a);
  mwrite->add_option("ADDR", a.address, "dword-aligned CR-space address")->required();
  mwrite->add_option("VALUE", a.third, "32-bit value")->required();
  mwrite->callback([&run, &common] { run = [&common] { return run_mwrite(a, common); }; });

  CLI::App* dump = app.add_subcommand(
      "dump", "dump the catalog's register ranges (\"0xADDR 0xVALUE\" lines, as mstregdump); lock registers are not read");
  add_device_options(dump, a);
  dump->add_flag("--full", a.full, "also the wider ranges (whole register pages)");
  dump->add_flag("-v,--verbose", a.verbose, "name the known registers and their fields as trailing \"# ...\" comments");
  dump->callback([&run, &common] { run = [&common] { return run_dump(a, common); }; });
}

}  // namespace openflint::mst
