// HostAccess: what this host lets a userspace tool reach — root, a writable sysfs PCI tree,
// kernel lockdown (which blocks BAR mappings), umad ports for in-band access.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace openflint {

struct HostAccess {
  bool root = false;                     // effective uid 0
  bool sysfs_readable = false;           // <root>/devices can be listed
  bool config_writable = false;          // the first Mellanox function's config file is writable (by us)
  std::string lockdown;                  // "none", "integrity", "confidentiality"; empty: not known
  std::vector<std::string> umad_ports;   // /dev/infiniband/umad* (in-band MADs)
  std::vector<std::string> active_ib_ports;  // "mlx5_0/1": local ports whose state is ACTIVE
};

struct HostAccessPaths {
  std::filesystem::path sysfs_root;     // the PCI root (/sys/bus/pci or a served tree)
  std::filesystem::path umad_dir = "/dev/infiniband";
};

// The active mode of /sys/kernel/security/lockdown ("none [integrity] confidentiality" gives
// "integrity"); empty when the file is absent (no lockdown LSM: nothing blocks the BAR).
[[nodiscard]] std::string kernel_lockdown_mode(const std::filesystem::path& file = "/sys/kernel/security/lockdown");

// Never fails: what cannot be read is reported as not available.
[[nodiscard]] HostAccess check_host_access(const HostAccessPaths& paths);

}  // namespace openflint
