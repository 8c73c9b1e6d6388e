// VpdCommand: `mst vpd DEV [KEYWORD...]` — the board's PCI Vital Product Data (part and serial number), as mstvpd prints it.
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/ErrorReport.h"
#include "cli/JsonOutput.h"
#include "cli/ExitCode.h"
#include "fwops/Device.h"
#include "mtcr/pci/PciVpd.h"
#include "mst/Commands.h"

namespace openflint::mst {
namespace {

using nlohmann::json;

struct VpdArgs {
  std::string device;
  std::vector<std::string> keywords;
  std::string sysfs;
  bool no_checksum = false;
  bool read_only = false;
};

int run_vpd_command(const VpdArgs& a, const Common& common) {
  DeviceOpenOptions open_options;
  if (!a.sysfs.empty()) open_options.sysfs_root = a.sysfs;
  auto device = open_device(a.device, open_options);
  if (!device) return cli::report_error(device.error(), common.json);
  auto bytes = device->vpd();
  if (!bytes) return cli::report_error(bytes.error().with_context("reading the VPD of " + a.device), common.json);
  auto vpd = parse_pci_vpd(*bytes);
  if (!vpd) return cli::report_error(vpd.error().with_context(a.device), common.json);
  if (!a.no_checksum && !vpd->checksum_ok)
    return cli::report_error(Error(ErrorCode::InvalidImage, a.device + ": the VPD checksum (RV) does not add up "
                                                                       "(--no-checksum shows it anyway)"), common.json);
  auto wanted = [&](const std::string& name) {
    if (a.keywords.empty()) return true;
    for (const auto& k : a.keywords)
      if (k == name) return true;
    return false;
  };
  json keywords = json::object();
  std::string text;
  if (wanted("ID")) text += "ID:      " + vpd->id + "\n";
  for (const VpdKeyword& k : vpd->keywords) {
    if (k.name == "RV" || k.data.empty() || (a.read_only && k.writable) || !wanted(k.name)) continue;
    bool binary = false;
    const std::string value = vpd_text(k, &binary);
    keywords[k.name] = value;
    text += k.name + (binary ? "(BIN)" : "") + ":      " + value + "\n";
  }
  for (const auto& k : a.keywords)
    if (k != "ID" && !keywords.contains(k))
      return cli::report_error(Error(ErrorCode::NotFound, a.device + ": the VPD has no keyword " + k), common.json);
  if (common.json) {
    cli::print_json(json{{"device", a.device}, {"id", vpd->id}, {"keywords", keywords},
                      {"checksum_ok", vpd->checksum_ok}});
    return cli::kOk;
  }
  std::cout << text;
  return cli::kOk;
}

}  // namespace

void add_vpd_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  static VpdArgs args;
  auto* vpd = app.add_subcommand("vpd", "the board's PCI Vital Product Data: identifier, part number (PN), "
                                        "engineering change (EC), serial number (SN), vendor keywords");
  vpd->add_option("DEV", args.device, "the device, a PCI function or a simulated one (VPD is read over PCI; name forms: mst --help)")->required();
  vpd->add_option("KEYWORD", args.keywords, "print only these keywords (ID, PN, SN, ...)");
  vpd->add_flag("-n,--no-checksum", args.no_checksum, "show the VPD even when its RV checksum does not add up");
  vpd->add_flag("-r,--read-only", args.read_only, "only the read-only keywords (VPD-R)");
  vpd->add_option("--sysfs", args.sysfs, "sysfs PCI root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  vpd->callback([&run, &common] { run = [&common] { return run_vpd_command(args, common); }; });
}

}  // namespace openflint::mst
