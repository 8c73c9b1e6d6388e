// PciConfigFile: plain reads and writes of a PCI function's sysfs `config` file (no gateway).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/Result.h"

namespace openflint {

// The bytes the kernel shows of `device_dir`/config (256 without privilege, 4096 as root on
// PCIe), little-endian as on the bus. NotFound when the function is gone (e.g. mid-reset).
// 0x58..0x5f are read only where they belong to a capability: on the parts without the vendor
// capability (ConnectX-3 and older, SwitchX) they are the CR-space window, where a read of 0x5c
// is a CR-space read with side effects (the tools HCR's semaphore that MGIR queries leave 0x58
// pointing at is taken by a read), so they read as 0 here.
[[nodiscard]] Result<std::vector<std::uint8_t>> read_pci_config(const std::filesystem::path& device_dir);
// One aligned dword at `offset` (a config register write, with its side effects).
[[nodiscard]] Result<void> write_pci_config32(const std::filesystem::path& device_dir, std::uint32_t offset,
                                              std::uint32_t value);
// The end of a tool's command on the function: fsync of its config file. The kernel's sysfs
// ignores it; a served tree (hcasim pci-serve) saves the simulated device before answering, so
// what the tool reported is durable once it returns. A file that cannot be opened (the function
// is gone) has nothing to sync: success. Io when the fsync fails (the server could not save).
[[nodiscard]] Result<void> sync_pci_config(const std::filesystem::path& device_dir);
// The dword at `offset` of a read_pci_config() buffer (0xffffffff past its end).
[[nodiscard]] std::uint32_t config_dword(const std::vector<std::uint8_t>& config, std::uint32_t offset);
// The offset of the standard capability `id` (walking the list from 0x34), 0 when absent.
[[nodiscard]] std::uint32_t find_pci_capability(const std::vector<std::uint8_t>& config, std::uint8_t id);

}  // namespace openflint
