// PciFunctionIds: the config header read-only, names through libpci's ID database, the catalog rule.
#include "core/HexString.h"
#include "mtcr/pci/PciFunctionIds.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

extern "C" {
#include <pci/pci.h>
}

#include "devices/DeviceCatalog.h"
#include "mtcr/pci/LibpciTrap.h"
#include "mtcr/pci/PciFunctionList.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

// Vendor and device id, revision and class: the first 12 bytes of the standard header (PCI 3.0 §6.2.1).
constexpr std::size_t kHeaderBytes = 12;

// The header from `config` (O_RDONLY, one pread at 0); nullopt with the reason when it cannot be read.
std::optional<std::array<std::uint8_t, kHeaderBytes>> read_header(const fs::path& config, std::string& why) {
  const int fd = ::open(config.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    why = config.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::array<std::uint8_t, kHeaderBytes> header{};
  ssize_t n = 0;
  do {
    n = ::pread(fd, header.data(), header.size(), 0);
  } while (n < 0 && errno == EINTR);
  const int err = errno;
  ::close(fd);
  if (n == static_cast<ssize_t>(header.size())) return header;
  why = config.string() + ": " + (n < 0 ? std::strerror(err) : "only " + std::to_string(n) + " bytes");
  return std::nullopt;
}

// libpci's name for one lookup (PCI_LOOKUP_VENDOR etc.) from pci.ids, empty when it does not know
// it. udev's hwdb (libpci's fallback for ids pci.ids lacks) is not asked: libpci 3.9 leaks a udev
// context per lookup wherever the hwdb is not installed, and the bus server names functions for as
// long as it runs.
template <typename... Ids>
std::string lookup_name(pci_access* access, int what, Ids... ids) {
  char buffer[256] = {};
  const char* name = nullptr;
  LibpciTrap trap;
  if (!trapped(trap, [&] { name = pci_lookup_name(access, buffer, sizeof buffer, what | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB, ids...); }))
    return {};
  return name != nullptr ? std::string(name) : std::string();
}

}  // namespace

Result<PciFunctionIds> read_pci_function_ids(const fs::path& function_dir) {
  PciFunctionIds ids;
  std::string why;
  if (const auto h = read_header(function_dir / "config", why)) {
    ids.vendor = static_cast<std::uint16_t>((*h)[0] | (*h)[1] << 8);
    ids.device = static_cast<std::uint16_t>((*h)[2] | (*h)[3] << 8);
    ids.revision = (*h)[8];
    ids.class_code = static_cast<std::uint32_t>((*h)[9] | (*h)[10] << 8 | (*h)[11] << 16);
    return ids;
  }
  const auto vendor = read_sysfs_number(function_dir / "vendor");
  const auto device = read_sysfs_number(function_dir / "device");
  if (!vendor || !device || *vendor > 0xffff || *device > 0xffff)
    return make_error(ErrorCode::NotFound, "cannot read the PCI ids of " + function_dir.filename().string() + " (" +
                                               why + "; no vendor and device attribute files either)");
  ids.vendor = static_cast<std::uint16_t>(*vendor);
  ids.device = static_cast<std::uint16_t>(*device);
  if (const auto c = read_sysfs_number(function_dir / "class"); c && *c <= 0xffffff) ids.class_code = *c;
  if (const auto r = read_sysfs_number(function_dir / "revision"); r && *r <= 0xff) ids.revision = static_cast<std::uint8_t>(*r);
  return ids;
}

std::string describe_pci_function(const PciFunctionIds& ids) {
  const unsigned class_id = ids.class_code >> 8;  // base class and subclass, as lspci shows them
  std::string vendor, device, klass;
  const char* env = std::getenv("OPENFLINT_PCI_IDS");
  std::string ids_file = env != nullptr ? env : "";  // libpci keeps the pointer: alive until pci_cleanup
  pci_access* access = nullptr;
  LibpciTrap trap;
  if (trapped(trap, [&] { access = pci_alloc(); }) && access != nullptr) {
    install_libpci_trap(access);
    access->id_lookup_mode = 0;  // pci.ids only: no network, no cache file in $HOME
    if (!ids_file.empty()) pci_set_name_list_path(access, ids_file.data(), 0);
    vendor = lookup_name(access, PCI_LOOKUP_VENDOR, static_cast<int>(ids.vendor));
    device = lookup_name(access, PCI_LOOKUP_DEVICE, static_cast<int>(ids.vendor), static_cast<int>(ids.device));
    klass = lookup_name(access, PCI_LOOKUP_CLASS, static_cast<int>(class_id));
    LibpciTrap cleanup;
    (void)trapped(cleanup, [&] { pci_cleanup(access); });
  }
  if (vendor.empty() && device.empty() && klass.empty())
    return "vendor " + hex_string(ids.vendor, 4) + ", device " + hex_string(ids.device, 4) + ", class " +
           hex_string(ids.class_code, 6) + ", revision " + hex_string(ids.revision, 2);
  std::string text = (klass.empty() ? "Class" : klass) + " [" + hex_string(class_id, 4).substr(2) + "]: ";
  if (!vendor.empty()) text += vendor + " ";
  text += (device.empty() ? "Device" : device) + " [" + hex_string(ids.vendor, 4).substr(2) + ":" + hex_string(ids.device, 4).substr(2) + "]";
  if (ids.revision != 0) text += " (rev " + hex_string(ids.revision, 2).substr(2) + ")";
  return text;
}

Result<const DeviceInfo*> require_catalog_function(const PciAddress& address, const fs::path& sysfs_root) {
  OF_ASSIGN(const PciFunctionIds ids, read_pci_function_ids(sysfs_root / "devices" / address.to_string()));
  if (ids.vendor == kPciVendorMellanox) {
    if (auto info = find_device_by_pci_id(ids.device)) return *info;
  }
  const std::string why =
      ids.vendor != kPciVendorMellanox
          ? "not a Mellanox adapter or switch (vendor 0x15b3)"
          : "a vendor 0x15b3 function whose device id " + hex_string(ids.device, 4) + " the catalog does not list";
  return make_error(ErrorCode::InvalidArgument, address.to_string() + " is " + describe_pci_function(ids) + ", " + why +
                                                    ": refused, nothing was written to it");
}

}  // namespace openflint
