// ServerSetup: the default device list and the audit log of mst's servers.
#include "mst/ServerSetup.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>

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

Result<AuditLog> make_audit_log(const std::string& path) {
  auto mutex = std::make_shared<std::mutex>();
  if (path.empty())
    return AuditLog([mutex](std::string_view line) {
      const std::lock_guard lock(*mutex);
      std::cerr << "-I- " << line << std::endl;
    });
  auto file = std::make_shared<std::ofstream>(path, std::ios::app);
  if (!*file) return make_error(ErrorCode::Io, "cannot open the audit log " + path);
  return AuditLog([file, mutex](std::string_view line) {
    const std::lock_guard lock(*mutex);
    *file << line << std::endl;
  });
}

}  // namespace openflint::mst
