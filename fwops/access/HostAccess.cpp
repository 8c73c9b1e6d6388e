// HostAccess: reading the host's permissions and kernel state, no device access.
#include "fwops/access/HostAccess.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <system_error>

#include "mtcr/pci/PciDeviceName.h"
#include "mtcr/pci/PciFunctionList.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

std::string read_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// <class>/infiniband/<dev>/ports/<n>/state reads "4: ACTIVE" when the port is up.
std::vector<std::string> active_ports(const fs::path& class_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator dev(class_dir, ec), end; !ec && dev != end; dev.increment(ec)) {
    std::error_code pec;
    for (fs::directory_iterator port(dev->path() / "ports", pec), pend; !pec && port != pend; port.increment(pec)) {
      if (read_line(port->path() / "state").find("ACTIVE") != std::string::npos)
        out.push_back(dev->path().filename().string() + "/" + port->path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::string kernel_lockdown_mode(const fs::path& file) {
  const std::string line = read_line(file);
  const auto open = line.find('[');
  const auto close = line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return line.substr(open + 1, close - open - 1);
}

HostAccess check_host_access(const HostAccessPaths& paths) {
  HostAccess h;
  h.root = ::geteuid() == 0;
  h.sysfs_readable = ::access((paths.sysfs_root / "devices").c_str(), R_OK | X_OK) == 0;
  const auto functions = list_mellanox_functions(paths.sysfs_root);
  if (!functions.empty()) {
    const fs::path config = paths.sysfs_root / "devices" / functions.front().address.to_string() / "config";
    h.config_writable = ::access(config.c_str(), W_OK) == 0;
  }
  h.lockdown = kernel_lockdown_mode();
  std::error_code ec;
  for (fs::directory_iterator it(paths.umad_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("umad")) h.umad_ports.push_back(it->path().string());
  }
  std::sort(h.umad_ports.begin(), h.umad_ports.end());
  h.active_ib_ports = active_ports(infiniband_class_dir(paths.sysfs_root));
  return h;
}

}  // namespace openflint
