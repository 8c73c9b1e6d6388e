// PciConfigSaveLoad: save (read, write the file) and load (lock, compare ids, refuse, write back).
#include "fwops/access/PciConfigSaveLoad.h"

#include <system_error>

#include "core/HexString.h"
#include "core/UninterruptibleSection.h"
#include "mtcr/pci/PciConfigFile.h"
#include "mtcr/pci/PciFunctionIds.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

fs::path function_dir_of(const fs::path& sysfs_root, const PciAddress& address) {
  return sysfs_root / "devices" / address.to_string();
}

std::string ids_text(const SavedPciConfig& c) {
  return hex_string(c.vendor(), 4).substr(2) + ":" + hex_string(c.device(), 4).substr(2) + " (subsystem " +
         hex_string(c.subsystem_vendor(), 4).substr(2) + ":" + hex_string(c.subsystem_device(), 4).substr(2) + ")";
}

std::string bound_driver(const fs::path& function_dir) {
  std::error_code ec;
  const fs::path link = function_dir / "driver";
  if (!fs::is_symlink(fs::symlink_status(link, ec))) return {};
  return fs::read_symlink(link, ec).filename().string();
}

void plan_blockers(const PciConfigLoadOptions& options, PciConfigLoad& load) {
  const SavedPciConfig now{load.saved.address, load.now};
  if (now.vendor() != load.saved.vendor() || now.device() != load.saved.device() ||
      now.subsystem_vendor() != load.saved.subsystem_vendor() || now.subsystem_device() != load.saved.subsystem_device())
    load.blockers.push_back({ErrorCode::Mismatch, load.file.string() + " was saved from " + ids_text(load.saved) + ", but " +
                                                      load.saved.address.to_string() + " is now " + ids_text(now) +
                                                      " (another card, or a function in flash-recovery mode): not loading it"});
  if (!load.driver.empty() && !options.force && !load.changes.empty())  // nothing to write: nothing to refuse
    load.blockers.push_back({ErrorCode::Busy, "driver " + load.driver + " is bound to " + load.saved.address.to_string() +
                                                  ": unload it (its BARs and command register are the driver's), or "
                                                  "--force to write under it"});
}

}  // namespace

Result<PciConfigSaved> save_pci_config(const fs::path& sysfs_root, const PciAddress& address, const fs::path& dir) {
  OF_TRY(require_catalog_function(address, sysfs_root));
  OF_ASSIGN(auto bytes, read_pci_config(function_dir_of(sysfs_root, address)));
  PciConfigSaved saved{.config = SavedPciConfig{.address = address, .bytes = std::move(bytes)}, .file = {}};
  auto file = write_saved_pci_config(dir, saved.config);
  if (!file) return make_error(std::move(file).error().with_context("saving " + address.to_string()));
  saved.file = *file;
  return saved;
}

Result<PciConfigLoad> plan_pci_config_load(const fs::path& sysfs_root, const PciAddress& address, const fs::path& dir,
                                           const PciConfigLoadOptions& options) {
  PciConfigLoad load;
  OF_ASSIGN(load.saved, read_saved_pci_config(dir, address));
  load.file = saved_pci_config_path(dir, address);
  load.function_dir = function_dir_of(sysfs_root, address);
  // Opened through config space as every tool opens it: the catalog check and the device lock.
  DeviceOpenOptions open_options;
  open_options.lock_timeout = options.lock_timeout;
  open_options.sysfs_root = sysfs_root;
  OF_ASSIGN(Device device, open_device("pciconf-" + address.to_string(), open_options));
  load.held.emplace(std::move(device));
  OF_ASSIGN(load.now, read_pci_config(load.function_dir));
  load.driver = bound_driver(load.function_dir);
  load.changes = pci_config_differences(load.saved.bytes, load.now);
  plan_blockers(options, load);
  return load;
}

Result<std::vector<std::string>> run_pci_config_load(PciConfigLoad& load) {
  if (!load.blockers.empty()) return make_error(load.blockers.front().code, load.blockers.front().why);
  if (!load.held) return make_error(ErrorCode::Internal, "the load of " + load.saved.address.to_string() + " holds no lock");
  std::vector<std::string> written;
  {
    // The registers go back together: a stop signal waits for the command register.
    const UninterruptibleSection together;
    OF_ASSIGN(written, restore_pci_config(load.function_dir, load.saved.bytes, load.now));
  }
  auto committed = load.held->commit();
  load.held.reset();
  if (!committed) return make_error(std::move(committed).error());
  return written;
}

}  // namespace openflint
