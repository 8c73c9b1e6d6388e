// PciFunctionIds: what a PCI function is (vendor, device, class), read without writing to it, and
// the rule every PCI path applies before it writes, maps or locks anything: only the functions of
// vendor 0x15b3 whose device id the catalog lists are opened.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "mtcr/pci/PciAddress.h"

namespace openflint {

inline constexpr std::uint16_t kPciVendorMellanox = 0x15b3;

struct PciFunctionIds {
  std::uint16_t vendor = 0;
  std::uint16_t device = 0;
  std::uint32_t class_code = 0;  // base class, subclass, programming interface: 0x020000 is an Ethernet controller
  std::uint8_t revision = 0;
};

// The ids of the function at `function_dir` (<sysfs root>/devices/<BDF>): the first 12 bytes of
// its `config`, opened read-only; where config cannot be read, the kernel's attribute files
// (vendor, device, class, revision: the same header fields). NotFound when neither is there.
[[nodiscard]] Result<PciFunctionIds> read_pci_function_ids(const std::filesystem::path& function_dir);

// The function as `lspci -nn` names it: "Host bridge [0600]: Intel Corporation 440FX - 82441FX PMC
// [Natoma] [8086:1237] (rev 02)", the names from libpci's ID database (its pci.ids, or the file
// OPENFLINT_PCI_IDS names, as lspci -i; and udev's hwdb); without any name there, plain hex:
// "vendor 0x8086, device 0x1237, class 0x060000, revision 0x02". Loading the whole database
// takes libpci about 0.1 s: this is for error messages, not for listings.
[[nodiscard]] std::string describe_pci_function(const PciFunctionIds& ids);

// The catalog record of the function at <sysfs_root>/devices/<address>, when it is vendor
// 0x15b3's with a PCI device id the catalog lists (normal, alternate or recovery id). Otherwise
// InvalidArgument, one line naming what the function is. Only reads: called before any write,
// mapping or lock file, so a mistyped address leaves another device untouched.
[[nodiscard]] Result<const DeviceInfo*> require_catalog_function(const PciAddress& address,
                                                                 const std::filesystem::path& sysfs_root);

}  // namespace openflint
