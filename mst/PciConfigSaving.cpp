// PciConfigSaving: the functions saved one by one, and how the result is printed.
#include "mst/PciConfigSaving.h"

#include "cli/ErrorReport.h"
#include "core/HexString.h"

namespace openflint::mst {

std::vector<PciAddress> catalog_functions(const std::vector<PciDeviceStatus>& devices) {
  std::vector<PciAddress> out;
  for (const auto& d : devices)
    if (d.info != nullptr) out.push_back(d.function.address);
  return out;
}

SaveRun save_functions(const std::filesystem::path& sysfs_root, const std::vector<PciAddress>& addresses,
                       const std::filesystem::path& dir) {
  SaveRun run{.dir = dir, .saved = {}, .failed = {}};
  for (const auto& a : addresses) {
    auto saved = save_pci_config(sysfs_root, a, dir);
    if (saved) run.saved.push_back(std::move(*saved));
    else run.failed.push_back(std::move(saved).error());
  }
  return run;
}

nlohmann::json save_run_json(const SaveRun& run) {
  nlohmann::json doc{{"dir", run.dir.string()}, {"saved", nlohmann::json::array()}, {"failed", nlohmann::json::array()}};
  for (const auto& s : run.saved)
    doc["saved"].push_back({{"bdf", s.config.address.to_string()},
                            {"file", s.file.string()},
                            {"bytes", s.config.bytes.size()},
                            {"vendor_id", hex_string(s.config.vendor(), 4)},
                            {"device_id", hex_string(s.config.device(), 4)}});
  for (const auto& e : run.failed) doc["failed"].push_back(cli::error_json(e)["error"]);
  return doc;
}

void print_saved(std::ostream& out, const SaveRun& run) {
  for (const auto& s : run.saved)
    out << s.config.address.to_string() << " -> " << s.file.string() << " (" << s.config.bytes.size() << " bytes, "
        << hex_string(s.config.vendor(), 4).substr(2) << ':' << hex_string(s.config.device(), 4).substr(2) << ")\n";
}

}  // namespace openflint::mst
