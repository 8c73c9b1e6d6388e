// DeviceCatalog: lookups over the concatenated per-family record tables.
#include "devices/DeviceCatalog.h"

#include <string>
#include <vector>

#include "devices/CatalogRecords.h"
#include "core/HexString.h"

namespace openflint {
namespace {

const std::vector<DeviceInfo>& records() {
  static const std::vector<DeviceInfo> all = [] {
    std::vector<DeviceInfo> v;
    for (const DeviceInfo& d : catalog::hca_records()) v.push_back(d);
    for (const DeviceInfo& d : catalog::switch_records()) v.push_back(d);
    return v;
  }();
  return all;
}

}  // namespace

std::span<const DeviceInfo> all_devices() { return records(); }

Result<const DeviceInfo*> find_device_by_hw_id(std::uint16_t hw_id, std::uint8_t revision) {
  const DeviceInfo* any_revision = nullptr;
  for (const DeviceInfo& d : records()) {
    if (d.hw_id != hw_id) continue;
    if (!d.hw_revision || *d.hw_revision == revision) return &d;
    if (any_revision == nullptr) any_revision = &d;
  }
  // A revision we do not list still belongs to the family: take its first record.
  if (any_revision != nullptr) return any_revision;
  return make_error(ErrorCode::NotFound, "unknown hw device id " + hex_string(hw_id));
}

Result<const DeviceInfo*> find_device_by_pci_id(std::uint16_t pci_device_id, bool* recovery) {
  for (const DeviceInfo& d : records()) {
    if (d.pci_device_id == pci_device_id || d.pci_alt_device_id == pci_device_id) {
      if (recovery != nullptr) *recovery = false;
      return &d;
    }
  }
  for (const DeviceInfo& d : records()) {
    if (d.pci_recovery_id != 0 && d.pci_recovery_id == pci_device_id) {
      if (recovery != nullptr) *recovery = true;
      return &d;
    }
  }
  return make_error(ErrorCode::NotFound, "unknown pci device id " + hex_string(pci_device_id));
}

Result<const DeviceInfo*> find_device_by_sim_model(std::string_view model) {
  for (const DeviceInfo& d : records()) {
    if (d.sim_model == model) return &d;
  }
  return make_error(ErrorCode::NotFound, "no simulator model named '" + std::string(model) + "'");
}

}  // namespace openflint
