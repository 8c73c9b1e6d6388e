// MstLinks: /dev/mst/NAME entries for scripts that expect them — symbolic links to the sysfs
// function directories, made by `mst start` and removed (only ours) by `mst stop`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/Result.h"
#include "fwops/access/DeviceListing.h"

namespace openflint {

// OPENFLINT_MST_DIR, else /dev/mst.
[[nodiscard]] std::filesystem::path default_mst_dir();

struct MstLink {
  enum class State { Created, Kept, Conflict, Removed, Gone };
  std::string name;              // "mt4115_pciconf0"
  std::filesystem::path target;  // <sysfs root>/devices/<BDF>
  State state = State::Created;  // Kept: ours already, same target; Conflict: someone else's entry, left alone;
                                 // Gone (stop): no longer ours (removed or replaced by someone else), left alone
};

[[nodiscard]] const char* to_string(MstLink::State s);

// The names flint accepts for each catalog function ("mtNNNN_pciconfK"; "mtNNNN_pci_crK" too when
// the BAR works), each a link to the function's sysfs directory; a vendor 0x15b3 function the
// catalog does not list (a PCIe bridge of the adapter, a virtual function) gets none, as every
// tool refuses it. Creates `dir` if needed and records what it made in dir/.openflint-links
// (kept across starts), written atomically. Io or PermissionDenied when the directory or a link
// cannot be made.
[[nodiscard]] Result<std::vector<MstLink>> create_mst_links(const std::filesystem::path& dir,
                                                            const std::filesystem::path& sysfs_root,
                                                            const std::vector<PciDeviceStatus>& devices);

// Removes the links dir/.openflint-links records that still point where we made them, then the
// record, then `dir` when we created it and it is empty. No record: nothing to do (empty list).
[[nodiscard]] Result<std::vector<MstLink>> remove_mst_links(const std::filesystem::path& dir);

}  // namespace openflint
