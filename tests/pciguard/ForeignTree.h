// ForeignTree: a hand-made sysfs tree (plain files, no FUSE) of PCI functions that are not the
// toolkit's — a host bridge, a SATA and an NVMe disk controller, another vendor's Ethernet NIC
// (BAR0 as resource0, an RDMA name linked to it) and a vendor 0x15b3 PCIe bridge the catalog does
// not list — with realistic config headers, and a snapshot of every file (bytes and mtime).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "mtcr/pci/PciFunctionIds.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

struct ForeignFunction {
  const char* label;  // the test name part
  const char* bdf;    // as sysfs names it
  std::uint16_t vendor;
  std::uint16_t device;
  std::uint32_t class_code;
  std::uint8_t revision;
  std::uint8_t header_type;  // 0: endpoint, 1: bridge
  std::uint16_t subsystem_vendor;
  std::uint16_t subsystem_device;
  unsigned bar;             // the BAR with a memory resource (a resourceN file), or 6: none
  std::uint64_t bar_size;   // its size
  std::uint32_t bar_flags;  // the resource line's flags (kernel IORESOURCE_*)
  const char* lspci;        // what `lspci -nn` prints after the BDF, with ids_file() as its database

  [[nodiscard]] PciFunctionIds ids() const { return {vendor, device, class_code, revision}; }
};

// Ids and names as pci.ids has them (Debian's pciutils 3.9 database names every one of them).
inline const std::vector<ForeignFunction>& foreign_functions() {
  static const std::vector<ForeignFunction> all = {
      {"HostBridge", "0000:00:00.0", 0x8086, 0x1237, 0x060000, 0x02, 0, 0x1af4, 0x1100, 6, 0, 0,
       "Host bridge [0600]: Intel Corporation 440FX - 82441FX PMC [Natoma] [8086:1237] (rev 02)"},
      {"SataAhci", "0000:00:17.0", 0x8086, 0xa102, 0x010601, 0x31, 0, 0x1028, 0x06e4, 5, 0x800, 0x40200,
       "SATA controller [0106]: Intel Corporation Q170/Q150/B150/H170/H110/Z170/CM236 Chipset SATA Controller [AHCI Mode] "
       "[8086:a102] (rev 31)"},
      {"NvmeDisk", "0000:02:00.0", 0x144d, 0xa808, 0x010802, 0x00, 0, 0x144d, 0xa801, 0, 0x4000, 0x140204,
       "Non-Volatile memory controller [0108]: Samsung Electronics Co Ltd NVMe SSD Controller SM981/PM981/PM983 [144d:a808]"},
      {"EthernetNic", "0000:03:00.0", 0x8086, 0x159b, 0x020000, 0x02, 0, 0x8086, 0x0003, 0, 0x20000, 0x14220c,
       "Ethernet controller [0200]: Intel Corporation Ethernet Controller E810-XXV for SFP [8086:159b] (rev 02)"},
      {"MellanoxBridge", "0000:04:00.0", 0x15b3, 0x1976, 0x060400, 0x00, 1, 0x0000, 0x0000, 6, 0, 0,
       "PCI bridge [0604]: Mellanox Technologies MT28908 Family [ConnectX-6 PCIe Bridge] [15b3:1976]"},
  };
  return all;
}

// Those names as a pci.ids file (its format: vendor lines, tab-indented devices; "C" classes,
// tab-indented subclasses): a database of a few lines that libpci loads at once and that names
// the functions the same on every host.
inline constexpr const char* kForeignPciIds =
    "8086  Intel Corporation\n"
    "\t1237  440FX - 82441FX PMC [Natoma]\n"
    "\t159b  Ethernet Controller E810-XXV for SFP\n"
    "\ta102  Q170/Q150/B150/H170/H110/Z170/CM236 Chipset SATA Controller [AHCI Mode]\n"
    "144d  Samsung Electronics Co Ltd\n"
    "\ta808  NVMe SSD Controller SM981/PM981/PM983\n"
    "15b3  Mellanox Technologies\n"
    "\t1976  MT28908 Family [ConnectX-6 PCIe Bridge]\n"
    "C 01  Mass storage controller\n"
    "\t06  SATA controller\n"
    "\t08  Non-Volatile memory controller\n"
    "C 02  Network controller\n"
    "\t00  Ethernet controller\n"
    "C 06  Bridge\n"
    "\t00  Host bridge\n"
    "\t04  PCI bridge\n";

// The RDMA device name linked to the NIC (as the irdma driver names an E810's).
inline constexpr const char* kForeignRdmaName = "irdma0";

class ForeignTree {
 public:
  // A fixed mtime in the past: a write to any file moves it, even within the same clock tick.
  static inline const std::filesystem::file_time_type kOldTime =
      std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 365);

  ForeignTree() {
    for (const ForeignFunction& f : foreign_functions()) add(f);
    const auto ib = dir_.path() / "class" / "infiniband" / kForeignRdmaName;
    std::filesystem::create_directories(ib);
    std::filesystem::create_symlink("../../../bus/pci/devices/0000:03:00.0", ib / "device");
    std::ofstream(ids_file()) << kForeignPciIds;
  }

  [[nodiscard]] std::filesystem::path root() const { return dir_.path() / "bus" / "pci"; }
  // kForeignPciIds as a file (outside the sysfs tree), for OPENFLINT_PCI_IDS and lspci -i.
  [[nodiscard]] std::filesystem::path ids_file() const { return dir_.path() / "pci.ids"; }
  [[nodiscard]] const std::filesystem::path& top() const { return dir_.path(); }

  // A function as another vendor's tools (or a test) would lay it out, added to the tree.
  void add(const ForeignFunction& f) {
    const auto dir = root() / "devices" / f.bdf;
    std::filesystem::create_directories(dir);
    write(dir / "config", config_header(f));
    text(dir / "vendor", hex(f.vendor, 4));
    text(dir / "device", hex(f.device, 4));
    text(dir / "class", hex(f.class_code, 6));
    text(dir / "revision", hex(f.revision, 2));
    text(dir / "subsystem_vendor", hex(f.subsystem_vendor, 4));
    text(dir / "subsystem_device", hex(f.subsystem_device, 4));
    text(dir / "irq", "16");
    std::string resource;
    for (unsigned i = 0; i < 7; ++i) {  // BAR0..5 and the expansion ROM
      const bool used = i == f.bar;
      const std::uint64_t start = used ? 0xdf000000u : 0;
      resource += hex(start, 16) + " " + hex(used ? start + f.bar_size - 1 : 0, 16) + " " + hex(used ? f.bar_flags : 0, 16) + "\n";
    }
    std::ofstream(dir / "resource") << resource;
    if (f.bar < 6) {  // the BAR's registers: a pattern, as a live device would show something
      const auto bar = dir / ("resource" + std::to_string(f.bar));
      std::vector<std::uint8_t> bytes(f.bar_size);
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 131 + 7);
      write(bar, bytes);
    }
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file()) std::filesystem::last_write_time(e.path(), kOldTime);
  }

  // Every file under the tree: its bytes and mtime; symbolic links by their targets.
  using Snapshot = std::map<std::string, std::pair<std::filesystem::file_time_type, std::vector<std::uint8_t>>>;
  [[nodiscard]] Snapshot snapshot() const {
    Snapshot s;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_.path())) {
      const std::string key = e.path().lexically_relative(dir_.path()).string();
      if (e.is_symlink()) {
        const std::string target = std::filesystem::read_symlink(e.path()).string();
        s[key] = {{}, std::vector<std::uint8_t>(target.begin(), target.end())};
      } else if (e.is_regular_file()) {
        s[key] = {std::filesystem::last_write_time(e.path()), read_file(e.path())};
      } else {
        s[key] = {};
      }
    }
    return s;
  }

  // A 256-byte config space: the standard header (PCI 3.0 §6.1), a capability list (power
  // management, MSI, PCI Express) and device-specific bytes that are not zero.
  static std::vector<std::uint8_t> config_header(const ForeignFunction& f) {
    std::vector<std::uint8_t> c(256);
    for (std::size_t i = 0x40; i < c.size(); ++i) c[i] = static_cast<std::uint8_t>(i * 37 + 11);
    put16(c, 0x00, f.vendor);
    put16(c, 0x02, f.device);
    put16(c, 0x04, 0x0406);  // memory space, bus master, interrupts disabled
    put16(c, 0x06, 0x0010);  // a capability list
    c[0x08] = f.revision;
    c[0x09] = static_cast<std::uint8_t>(f.class_code);
    c[0x0a] = static_cast<std::uint8_t>(f.class_code >> 8);
    c[0x0b] = static_cast<std::uint8_t>(f.class_code >> 16);
    c[0x0e] = f.header_type;
    if (f.header_type == 1) {
      c[0x18] = 0x03;  // primary, secondary, subordinate bus
      c[0x19] = 0x04;
      c[0x1a] = 0x04;
    } else {
      if (f.bar < 6) put32(c, 0x10 + 4 * f.bar, 0xdf000000u | (f.bar_flags & 0xc));  // the kernel keeps the BAR's type bits
      put16(c, 0x2c, f.subsystem_vendor);
      put16(c, 0x2e, f.subsystem_device);
      c[0x3c] = 16;  // interrupt line
      c[0x3d] = 1;   // INTA
    }
    c[0x34] = 0x40;
    put16(c, 0x40, 0x5001);  // power management, next 0x50
    put16(c, 0x50, 0x7005);  // MSI, next 0x70
    put16(c, 0x70, 0x0010);  // PCI Express, last
    return c;
  }

 private:
  static std::string hex(std::uint64_t v, int width) {
    char s[32];
    std::snprintf(s, sizeof s, "0x%0*llx", width, static_cast<unsigned long long>(v));
    return s;
  }
  static void text(const std::filesystem::path& file, const std::string& line) { std::ofstream(file) << line << '\n'; }
  static void write(const std::filesystem::path& file, const std::vector<std::uint8_t>& bytes) { write_file(file, bytes); }
  static void put16(std::vector<std::uint8_t>& c, std::size_t at, std::uint16_t v) {
    c[at] = static_cast<std::uint8_t>(v);
    c[at + 1] = static_cast<std::uint8_t>(v >> 8);
  }
  static void put32(std::vector<std::uint8_t>& c, std::size_t at, std::uint32_t v) {
    put16(c, at, static_cast<std::uint16_t>(v));
    put16(c, at + 2, static_cast<std::uint16_t>(v >> 16));
  }

  TempDir dir_;
};

}  // namespace openflint::test
