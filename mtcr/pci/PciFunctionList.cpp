// PciFunctionList: scanning <root>/devices for vendor 0x15b3 and numbering the MST names.
#include "mtcr/pci/PciFunctionList.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <map>
#include <system_error>

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr unsigned kMellanoxVendor = 0x15b3;

bool not_connected(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) != 0 && errno == ENOTCONN;
}

}  // namespace

std::optional<fs::path> dead_mount_at(const fs::path& path) {
  fs::path dead = path.lexically_normal();
  if (dead.filename().empty()) dead = dead.parent_path();  // a trailing slash
  if (!not_connected(dead)) return std::nullopt;
  // The mount point is the topmost path that fails so: its parent is reached.
  while (dead.has_relative_path() && dead.has_parent_path() && not_connected(dead.parent_path())) dead = dead.parent_path();
  return dead;
}

Result<void> check_sysfs_root(const fs::path& sysfs_root) {
  const auto dead = dead_mount_at(sysfs_root / "devices");
  if (!dead) return {};
  const std::string mount = dead->string();
  return make_error(ErrorCode::Io, mount + " is a dead FUSE mount (Transport endpoint is not connected): the server "
                                           "that provided it (hcasim pci-serve?) is gone; unmount it with "
                                           "'fusermount3 -u " + mount + "' or start hcasim pci-serve on it again");
}

std::optional<unsigned> read_sysfs_number(const fs::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text)) return std::nullopt;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 0);
  if (end == text.c_str() || *end != '\0' || v > 0xffffffffUL) return std::nullopt;
  return static_cast<unsigned>(v);
}

std::string MellanoxFunction::mst_name(PciMethod method) const {
  return "mt" + std::to_string(device_id) + (method == PciMethod::Bar ? "_pci_cr" : "_pciconf") +
         std::to_string(mst_index);
}

std::vector<MellanoxFunction> list_mellanox_functions(const fs::path& sysfs_root) {
  std::vector<PciAddress> addresses;
  std::error_code ec;
  for (fs::directory_iterator it(sysfs_root / "devices", ec), end; !ec && it != end; it.increment(ec)) {
    if (auto a = parse_pci_address(it->path().filename().string())) addresses.push_back(*a);
  }
  std::sort(addresses.begin(), addresses.end());
  std::vector<MellanoxFunction> out;
  std::map<std::uint16_t, unsigned> seen;  // device id -> functions numbered so far
  for (const PciAddress& a : addresses) {
    const fs::path dir = sysfs_root / "devices" / a.to_string();
    const auto device = read_sysfs_number(dir / "device");
    if (read_sysfs_number(dir / "vendor") != kMellanoxVendor || !device || *device > 0xffff) continue;
    MellanoxFunction f;
    f.address = a;
    f.device_id = static_cast<std::uint16_t>(*device);
    if (auto r = read_sysfs_number(dir / "revision"); r && *r <= 0xff) f.revision = static_cast<std::uint8_t>(*r);
    if (auto v = read_sysfs_number(dir / "subsystem_vendor"); v && *v <= 0xffff)
      f.subsystem_vendor = static_cast<std::uint16_t>(*v);
    if (auto d = read_sysfs_number(dir / "subsystem_device"); d && *d <= 0xffff)
      f.subsystem_device = static_cast<std::uint16_t>(*d);
    f.mst_index = seen[f.device_id]++;
    out.push_back(f);
  }
  return out;
}

}  // namespace openflint
