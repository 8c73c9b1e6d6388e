// PciDeviceName: PCI device names (BDF, pciconf-/pcicr-, MST names, RDMA names) resolved in one place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "mtcr/pci/PciAddress.h"

namespace openflint {

// How to reach CR-space: the config-space gateway, the mapped BAR0, or BAR first with a fall
// back to config space when the BAR is unusable.
enum class PciMethod { Auto, Config, Bar };

struct PciDeviceName {
  PciAddress address;
  PciMethod method = PciMethod::Auto;
};

// The sysfs PCI root: the OPENFLINT_SYSFS_ROOT environment variable, else /sys/bus/pci. Tools
// take it from their --sysfs option first; tests point it at a served tree.
[[nodiscard]] std::filesystem::path default_sysfs_root();

// RDMA devices (mlx5_0) are looked up in <root>/../../class/infiniband, so /sys/bus/pci gives
// /sys/class/infiniband and a test tree DIR/bus/pci gives DIR/class/infiniband.
[[nodiscard]] std::filesystem::path infiniband_class_dir(const std::filesystem::path& sysfs_root);

// Whether `name` has one of the PCI forms (so callers can pick this transport): a BDF,
// "pciconf-BDF", "pcicr-BDF", "[/dev/mst/]mtNNNN_pciconfK" / "mtNNNN_pci_crK", or an RDMA device
// name present under infiniband_class_dir(sysfs_root).
[[nodiscard]] bool is_pci_device_name(std::string_view name, const std::filesystem::path& sysfs_root);

// Whether `name` is shaped like the RDMA name of one of the vendor's devices, present or not:
// the kernel's (mlx4_0, mlx5_0, mthca0) or udev's (ibp59s0, rocep1s0f0), ending in a digit.
// Callers tell an absent RDMA device (NotFound) from a name of no known form ("pci0").
[[nodiscard]] bool looks_like_rdma_device_name(std::string_view name);

// Resolves a PCI device name. MST names "mtNNNN_pciconfK" (config space) and "mtNNNN_pci_crK"
// (BAR) are the K-th function, in BDF order, of vendor 0x15b3 whose PCI device id is decimal
// NNNN; RDMA names follow <class dir>/<name>/device to the function. A BDF must exist under
// <root>/devices. The function found must be one the toolkit knows (require_catalog_function:
// vendor 0x15b3, a catalog PCI device id), checked by reading only, so nothing that opens a name
// writes to, maps or locks another vendor's function. Errors: InvalidArgument (malformed, or not
// a catalog function: one line naming what it is), NotFound (no such device, with what exists),
// Io when the root is a dead FUSE mount (check_sysfs_root, mtcr/pci/PciFunctionList.h).
[[nodiscard]] Result<PciDeviceName> resolve_pci_device_name(std::string_view name,
                                                            const std::filesystem::path& sysfs_root);

}  // namespace openflint
