// ServerSetup: the default device list and the audit log of mst's servers.
#include "mst/ServerSetup.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>

#include "fabric/OpenedFabric.h"
#include "fwops/access/DeviceListing.h"
#include "mtcr/pci/PciDeviceName.h"

namespace openflint::mst {

Result<std::vector<std::string>> served_devices(const std::vector<std::string>& named, const std::filesystem::path& root) {
  if (!named.empty()) {
    for (const std::string& name : named) {
      if (!is_pci_device_name(name, root)) continue;
      if (auto pci = resolve_pci_device_name(name, root); !pci && pci.error().code() == ErrorCode::InvalidArgument)
        return make_error(std::move(pci).error());
    }
    return named;
  }
  ListingOptions listing;
  listing.probe_access = false;
  OF_ASSIGN(const auto functions, list_pci_devices(root, listing));
  std::vector<std::string> names;
  for (const auto& f : functions) {
    if (f.info != nullptr) names.push_back(f.function.mst_name());
  }
  return names;
}

Result<std::vector<std::string>> inband_served_devices(const std::vector<std::string>& named, const std::string& ca,
                                                      int port) {
  OF_ASSIGN(const OpenedFabric fabric, open_fabric(ca, port));
  std::vector<std::string> names = named;
  std::string suffix;
  if (!ca.empty()) suffix = "," + ca + (port > 0 ? "," + std::to_string(port) : std::string());
  std::size_t swept = 0;
  for (const FabricNode& node : fabric.nodes) {
    if (node.lid == 0) continue;
    names.push_back(node.device_name() + suffix);
    ++swept;
  }
  if (swept == 0) return make_error(ErrorCode::NotFound, "the fabric sweep found no node with a LID to serve in-band");
  return names;
}

Result<AuditLog> make_audit_log(const std::string& path) {
  auto mutex = std::make_shared<std::mutex>();
  if (path.empty()) {
    // Stderr as it is now, through a duplicate of fd 2: device queries and fabric sweeps in other
    // threads point fd 2 at /dev/null around the InfiniBand libraries' calls (core/StderrSilenced),
    // and an audit line must not fall into such a moment.
    const auto fd = std::shared_ptr<int>(new int(::fcntl(2, F_DUPFD_CLOEXEC, 3)), [](int* d) {
      if (*d >= 0) ::close(*d);
      delete d;
    });
    return AuditLog([mutex, fd](std::string_view line) {
      const std::lock_guard lock(*mutex);
      const std::string text = "-I- " + std::string(line) + "\n";
      if (*fd < 0 || ::write(*fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) std::cerr << text << std::flush;
    });
  }
  auto file = std::make_shared<std::ofstream>(path, std::ios::app);
  if (!*file) return make_error(ErrorCode::Io, "cannot open the audit log " + path);
  return AuditLog([file, mutex](std::string_view line) {
    const std::lock_guard lock(*mutex);
    *file << line << std::endl;
  });
}

}  // namespace openflint::mst
