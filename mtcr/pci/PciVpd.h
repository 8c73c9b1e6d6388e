// PciVpd: a PCI function's Vital Product Data (part number, serial number, ...): read, parsed, encoded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// The PCI VPD format (PCI Local Bus spec, VPD resource tags; docs/nvconfig.md §8): an identifier
// string (large tag 0x02), the read-only keywords (VPD-R, 0x10) — PN, EC, SN, V0..., and RV whose
// first byte makes the byte sum from offset 0 through it zero — optional read-write keywords
// (VPD-W, 0x11), and the end tag (small tag 0x0F).
struct VpdKeyword {
  std::string name;  // two ASCII characters
  std::vector<std::uint8_t> data;
  bool writable = false;  // from VPD-W
};

struct PciVpd {
  std::string id;
  std::vector<VpdKeyword> keywords;  // in order, RV included
  bool checksum_ok = false;          // RV present and the sum through it is 0
  std::size_t size = 0;              // bytes through the end tag
};

inline constexpr std::size_t kMaxVpdBytes = 32768;  // the capability's 15-bit address space

// InvalidImage naming the problem: an unknown tag, a tag running past the data, no identifier
// string or no VPD-R, no end tag.
[[nodiscard]] Result<PciVpd> parse_pci_vpd(std::span<const std::uint8_t> bytes);

// The VPD of `id` and read-only `keywords` (name, text), with RV and the end tag.
[[nodiscard]] std::vector<std::uint8_t> encode_pci_vpd(std::string_view id,
                                                       std::span<const std::pair<std::string, std::string>> keywords);

// A function's VPD bytes through its end tag: the sysfs `vpd` file of `device_dir` (what the kernel
// reads through the VPD capability), else the capability itself through the `config` file (write
// the address, wait for the flag, read the data). NotSupported when the function has neither;
// InvalidImage when what it holds is not VPD.
[[nodiscard]] Result<std::vector<std::uint8_t>> read_pci_vpd(const std::filesystem::path& device_dir);

// The same through the VPD capability only (config space), as the kernel does behind `vpd`.
[[nodiscard]] Result<std::vector<std::uint8_t>> read_pci_vpd_through_capability(const std::filesystem::path& device_dir);

// A keyword's value as text: printable ASCII as is, otherwise hex digits.
[[nodiscard]] std::string vpd_text(const VpdKeyword& keyword, bool* binary = nullptr);

}  // namespace openflint
