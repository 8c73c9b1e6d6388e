// PciFunctionList: the Mellanox (vendor 0x15b3) functions under a sysfs PCI root, with their MST names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "mtcr/pci/PciAddress.h"
#include "mtcr/pci/PciDeviceName.h"

namespace openflint {

// One function as its sysfs attribute files describe it. `mst_index` is its position among the
// functions with the same PCI device id in BDF order: the K of "mtNNNN_pciconfK", the one rule
// resolve_pci_device_name() applies the other way round.
struct MellanoxFunction {
  PciAddress address;
  std::uint16_t device_id = 0;
  std::optional<std::uint8_t> revision;
  std::optional<std::uint16_t> subsystem_vendor;
  std::optional<std::uint16_t> subsystem_device;
  unsigned mst_index = 0;

  // "mt4115_pciconf0" (Config) or "mt4115_pci_cr0" (Bar); Auto gives the config-space form.
  [[nodiscard]] std::string mst_name(PciMethod method = PciMethod::Config) const;
};

// Every function of vendor 0x15b3 under <sysfs_root>/devices, in BDF order (none: empty; an
// unreadable tree is an empty list too, the caller says where it looked).
[[nodiscard]] std::vector<MellanoxFunction> list_mellanox_functions(const std::filesystem::path& sysfs_root);

// The mount point of a dead FUSE mount at `path` or above it (its server, e.g. a killed
// `hcasim pci-serve`, is gone: every access there fails with ENOTCONN, "Transport endpoint is not
// connected"); nullopt when `path` can be reached or fails for any other reason.
[[nodiscard]] std::optional<std::filesystem::path> dead_mount_at(const std::filesystem::path& path);

// Io naming the dead mount and the remedy (unmount it, or serve it again) when `sysfs_root` is
// on one; else success (a missing tree is left to the caller). Every lookup of PCI names and
// listing of functions checks this first, so a dead tree is not reported as no device.
[[nodiscard]] Result<void> check_sysfs_root(const std::filesystem::path& sysfs_root);

// A sysfs attribute holding one number ("0x15b3\n", "0\n"), nullopt when absent or malformed.
[[nodiscard]] std::optional<unsigned> read_sysfs_number(const std::filesystem::path& file);

}  // namespace openflint
