// PciDeviceName: parsing and sysfs lookups of PCI device names.
#include "mtcr/pci/PciDeviceName.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <system_error>
#include <tuple>
#include <vector>

#include "core/EchoedName.h"
#include "mtcr/pci/PciFunctionIds.h"
#include "mtcr/pci/PciFunctionList.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kConfPrefix = "pciconf-";
constexpr std::string_view kBarPrefix = "pcicr-";
constexpr std::string_view kMstDir = "/dev/mst/";

// "mt4115_pciconf0" → {4115, Config, 0}; nullopt when the name is not of that shape.
struct MstName {
  unsigned device_id = 0;
  PciMethod method = PciMethod::Config;
  unsigned index = 0;
};
std::optional<MstName> parse_mst_name(std::string_view name) {
  if (name.starts_with(kMstDir)) name.remove_prefix(kMstDir.size());
  if (!name.starts_with("mt")) return std::nullopt;
  name.remove_prefix(2);
  MstName m;
  auto [p, ec] = std::from_chars(name.data(), name.data() + name.size(), m.device_id, 10);
  if (ec != std::errc{} || p == name.data() || m.device_id > 0xffff) return std::nullopt;
  std::string_view rest(p, static_cast<std::size_t>(name.data() + name.size() - p));
  if (rest.starts_with("_pciconf")) {
    rest.remove_prefix(8);
  } else if (rest.starts_with("_pci_cr")) {
    rest.remove_prefix(7);
    m.method = PciMethod::Bar;
  } else {
    return std::nullopt;
  }
  auto [q, ec2] = std::from_chars(rest.data(), rest.data() + rest.size(), m.index, 10);
  if (ec2 != std::errc{} || q != rest.data() + rest.size()) return std::nullopt;
  return m;
}

bool is_rdma_shape(std::string_view name) {
  return !name.empty() && name.size() < 64 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
         });
}

Result<PciAddress> existing(const PciAddress& a, const fs::path& root, std::string_view name) {
  std::error_code ec;
  if (fs::exists(root / "devices" / a.to_string(), ec)) return a;
  return make_error(ErrorCode::NotFound, "no PCI device " + a.to_string() + " under " + (root / "devices").string() +
                                             " (for " + echoed_name(name) + ")");
}

Result<PciAddress> resolve_mst(const MstName& m, const fs::path& root, std::string_view name) {
  unsigned matches = 0;
  for (const MellanoxFunction& f : list_mellanox_functions(root)) {
    if (f.device_id != m.device_id) continue;
    if (f.mst_index == m.index) return f.address;
    ++matches;
  }
  return make_error(ErrorCode::NotFound, "no device " + echoed_name(name) + ": " + std::to_string(matches) +
                                             " function(s) with PCI device id " + std::to_string(m.device_id) +
                                             " under " + (root / "devices").string());
}

Result<PciAddress> resolve_rdma(std::string_view name, const fs::path& root) {
  const fs::path link = infiniband_class_dir(root) / std::string(name) / "device";
  std::error_code ec;
  const fs::path target = fs::read_symlink(link, ec);
  if (ec) return make_error(ErrorCode::NotFound, "no such RDMA device " + echoed_name(name) + " (" + link.string() + ": " + ec.message() + ")");
  OF_ASSIGN(const PciAddress a, parse_pci_address(target.filename().string()));
  return existing(a, root, name);
}

// The function a name designates and how to reach it, before any check of what it is.
Result<PciDeviceName> resolve_address(std::string_view name, const fs::path& sysfs_root) {
  PciDeviceName out;
  if (auto m = parse_mst_name(name)) {
    out.method = m->method;
    OF_ASSIGN(out.address, resolve_mst(*m, sysfs_root, name));
    return out;
  }
  std::string_view bdf = name;
  if (bdf.starts_with(kConfPrefix)) {
    bdf.remove_prefix(kConfPrefix.size());
    out.method = PciMethod::Config;
  } else if (bdf.starts_with(kBarPrefix)) {
    bdf.remove_prefix(kBarPrefix.size());
    out.method = PciMethod::Bar;
  }
  if (auto a = parse_pci_address(bdf)) {
    OF_ASSIGN(out.address, existing(*a, sysfs_root, name));
    return out;
  } else if (bdf.size() != name.size() || bdf.find(':') != std::string_view::npos) {
    return make_error(std::move(a).error());
  }
  if (is_rdma_shape(name)) {
    OF_ASSIGN(out.address, resolve_rdma(name, sysfs_root));
    return out;
  }
  return make_error(ErrorCode::InvalidArgument, echoed_name(name) + " is not a PCI device name");
}

}  // namespace

fs::path default_sysfs_root() {
  const char* env = std::getenv("OPENFLINT_SYSFS_ROOT");
  return env != nullptr && *env != '\0' ? fs::path(env) : fs::path("/sys/bus/pci");
}

fs::path infiniband_class_dir(const fs::path& sysfs_root) {
  fs::path root = sysfs_root;
  if (root.filename().empty()) root = root.parent_path();  // a trailing slash
  return root.parent_path().parent_path() / "class" / "infiniband";
}

bool is_pci_device_name(std::string_view name, const fs::path& sysfs_root) {
  if (name.starts_with(kConfPrefix) || name.starts_with(kBarPrefix) || parse_mst_name(name)) return true;
  if (parse_pci_address(name)) return true;
  std::error_code ec;
  return is_rdma_shape(name) && fs::exists(infiniband_class_dir(sysfs_root) / std::string(name), ec);
}

bool looks_like_rdma_device_name(std::string_view name) {
  // Prefixes of the names the mlx4_ib, mlx5_ib and ib_mthca drivers register, and of udev's
  // rdma naming policy (NAME_PCI / NAME_ONBOARD / NAME_FALLBACK: ib... for InfiniBand, roce...).
  static constexpr std::string_view kPrefixes[] = {"mlx4_", "mlx5_", "mthca", "ib", "roce"};
  return is_rdma_shape(name) && name.back() >= '0' && name.back() <= '9' &&
         std::any_of(std::begin(kPrefixes), std::end(kPrefixes), [&](std::string_view p) { return name.starts_with(p); });
}

Result<PciDeviceName> resolve_pci_device_name(std::string_view name, const fs::path& sysfs_root) {
  OF_TRY(check_sysfs_root(sysfs_root));  // a dead mount is no "no such device"
  OF_ASSIGN(PciDeviceName out, resolve_address(name, sysfs_root));
  // Before anything writes to the function, maps its BAR or takes its lock: ours, or refused.
  if (auto known = require_catalog_function(out.address, sysfs_root); !known) {
    Error e = std::move(known).error();
    return make_error(parse_pci_address(name) ? std::move(e) : std::move(e).with_context(name));  // a BDF names itself
  }
  return out;
}

}  // namespace openflint
