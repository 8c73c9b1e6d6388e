// BoardVpd: a simulated board's VPD contents, built from its catalog record and identity.
#include "sim/BoardVpd.h"

#include <cstdio>
#include <string>
#include <utility>

#include "mtcr/pci/PciVpd.h"
#include "sim/SimDevice.h"

namespace openflint::sim {

std::vector<std::uint8_t> board_vpd(const SimDevice& device) {
  const DeviceInfo& info = device.info();
  if (info.kind != DeviceKind::Hca) return {};
  std::string serial = "SIM0000000000";
  const BootState& boot = device.boot_state();
  if (boot.running && boot.running->base_guid) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "%010llx",
                  static_cast<unsigned long long>(boot.running->base_guid->base & 0xffffffffffull));
    serial = "SIM" + std::string(hex);
  }
  const std::vector<std::pair<std::string, std::string>> keywords{
      {"PN", std::string(info.part_number) + "-SIM"},
      {"EC", "A1"},
      {"SN", serial},
      {"V0", "openflint hcasim"},
  };
  return encode_pci_vpd(std::string(info.name) + " simulated adapter card", keywords);
}

}  // namespace openflint::sim
