// SavedPciConfig: a PCI function's configuration space as `mst save` keeps it — one text file per
// function, named by its address, in the directory the vendor's mst kept them in (/var/mst_pci).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/pci/PciAddress.h"

namespace openflint {

// OPENFLINT_MST_SAVE_DIR, else /var/mst_pci (where the vendor's `mst start` and `mst save` put
// the headers).
[[nodiscard]] std::filesystem::path default_pci_save_dir();

struct SavedPciConfig {
  PciAddress address;
  std::vector<std::uint8_t> bytes;  // as read_pci_config read them: 256 bytes, or 4096 (root, PCIe)

  // The identity fields, from the bytes (little-endian, as on the bus).
  [[nodiscard]] std::uint16_t vendor() const;
  [[nodiscard]] std::uint16_t device() const;
  [[nodiscard]] std::uint8_t revision() const;
  [[nodiscard]] std::uint32_t class_code() const;
  [[nodiscard]] std::uint16_t subsystem_vendor() const;
  [[nodiscard]] std::uint16_t subsystem_device() const;
};

// The file: '#' comment lines, then "key value" lines (format, address, vendor, device, revision,
// class, subsystem, size), then the bytes as `lspci -xxx` / `-xxxx` prints them, 16 per row
// ("00: b3 15 13 10 ..."), so `diff` against lspci's dump shows what changed.
[[nodiscard]] std::string format_saved_pci_config(const SavedPciConfig& config);

// Parses what format_saved_pci_config wrote. Strict: every key once, rows consecutive from 0,
// size a multiple of 16 from 64 to 4096, and the vendor/device/revision/class/subsystem lines
// equal to the bytes they describe (a hand-edited file that disagrees with itself is refused).
// InvalidImage "<origin>: line N: ..." otherwise.
[[nodiscard]] Result<SavedPciConfig> parse_saved_pci_config(std::string_view text, std::string_view origin);

// <dir>/<DDDD:BB:DD.F>.
[[nodiscard]] std::filesystem::path saved_pci_config_path(const std::filesystem::path& dir, const PciAddress& address);

// Creates `dir` if needed and writes the file atomically (core/OutputFile: a temporary renamed
// into place; a link or special file at the path is refused). Io / PermissionDenied.
[[nodiscard]] Result<std::filesystem::path> write_saved_pci_config(const std::filesystem::path& dir,
                                                                 const SavedPciConfig& config);

// The file for `address` in `dir`: NotFound "no saved configuration of BDF in DIR" when absent,
// InvalidImage when malformed or saved for another address.
[[nodiscard]] Result<SavedPciConfig> read_saved_pci_config(const std::filesystem::path& dir, const PciAddress& address);

}  // namespace openflint
