// PciConfigSaveLoad: `mst save` and `mst load` — a catalog function's configuration space saved to
// a file, and its host-assigned registers written back from one (checked, refused, in order).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/access/SavedPciConfig.h"
#include "mtcr/pci/PciAddress.h"
#include "mtcr/pci/PciConfigRestore.h"

namespace openflint {

// What was saved: the function, its file, and the bytes (with the ids they hold).
struct PciConfigSaved {
  SavedPciConfig config;
  std::filesystem::path file;
};

// Reads the configuration space of the catalog function at `address` under `sysfs_root` (only
// reads; 0x58..0x5f of the parts without the vendor capability read as 0, mtcr/pci/PciConfigFile.h)
// and writes it to saved_pci_config_path(dir, address). InvalidArgument when the function is not
// a catalog function (require_catalog_function), NotFound when it is gone, Io/PermissionDenied
// when the file cannot be written.
[[nodiscard]] Result<PciConfigSaved> save_pci_config(const std::filesystem::path& sysfs_root, const PciAddress& address,
                                                     const std::filesystem::path& dir);

struct PciConfigLoadOptions {
  // Write even while a kernel driver is bound to the function (it owns the BARs and the command
  // register: changing them under it can hang its DMA). Default: a bound driver refuses.
  bool force = false;
  std::chrono::milliseconds lock_timeout{1000};  // another tool holding the device (a burn)
};

// A reason the load of one function will not run; `code` is what it is refused with.
struct PciConfigLoadBlocker {
  ErrorCode code = ErrorCode::Busy;
  std::string why;
};

// One function's load, planned and (while this object lives) holding the device lock, so nothing
// else opens the function between the question and the writes.
struct PciConfigLoad {
  SavedPciConfig saved;
  std::filesystem::path file;
  std::filesystem::path function_dir;  // <sysfs root>/devices/<BDF>
  std::string driver;                  // bound kernel driver, "" none
  std::vector<std::uint8_t> now;       // the configuration space as read after the lock was taken
  std::vector<PciRegisterDifference> changes;  // what load would write, in order
  std::vector<PciConfigLoadBlocker> blockers;  // empty: it can run
  std::optional<Device> held;                  // the function opened (config space) for its lock
};

// Plans loading `dir`'s saved file for `address`: reads the file (NotFound without one,
// InvalidImage when malformed), opens the function as the tools do (its catalog check and lock:
// Busy while another tool holds it), reads its configuration space now and lists the restorable
// registers (mtcr/pci/PciConfigRestore.h) that differ. Blockers: the saved vendor, device or
// subsystem ids differ from the function's (Mismatch: another card in the slot, or the function
// in flash-recovery mode), a bound driver without `force` when something would be written (Busy).
[[nodiscard]] Result<PciConfigLoad> plan_pci_config_load(const std::filesystem::path& sysfs_root,
                                                         const PciAddress& address, const std::filesystem::path& dir,
                                                         const PciConfigLoadOptions& options);

// Writes the planned registers (restore_pci_config: in order, the command register last, read
// back) and ends with the tools' save point (Device::commit). Refuses with the first blocker.
// Returns "<BDF> <register>" per register written; the lock is released.
[[nodiscard]] Result<std::vector<std::string>> run_pci_config_load(PciConfigLoad& load);

}  // namespace openflint
