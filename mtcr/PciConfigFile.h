// PciConfigFile: plain reads and writes of a PCI function's sysfs `config` file (no gateway).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/Result.h"

namespace openflint {

// The bytes the kernel shows of `device_dir`/config (256 without privilege, 4096 as root on
// PCIe), little-endian as on the bus. NotFound when the function is gone (e.g. mid-reset).
// 0x58..0x5f, the pre-VSEC parts' CR-space window, are not read (0xff): a read of its data
// register is a CR-space read with that address's side effects — on ConnectX-3 it took the tools
// HCR semaphore and left it held after every reset.
[[nodiscard]] Result<std::vector<std::uint8_t>> read_pci_config(const std::filesystem::path& device_dir);
// One aligned dword at `offset` (a config register write, with its side effects).
[[nodiscard]] Result<void> write_pci_config32(const std::filesystem::path& device_dir, std::uint32_t offset,
                                              std::uint32_t value);
// The dword at `offset` of a read_pci_config() buffer (0xffffffff past its end).
[[nodiscard]] std::uint32_t config_dword(const std::vector<std::uint8_t>& config, std::uint32_t offset);
// The offset of the standard capability `id` (walking the list from 0x34), 0 when absent.
[[nodiscard]] std::uint32_t find_pci_capability(const std::vector<std::uint8_t>& config, std::uint8_t id);

}  // namespace openflint
