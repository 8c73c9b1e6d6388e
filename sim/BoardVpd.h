// BoardVpd: the VPD a simulated board carries (identifier, part number, serial number) in its VPD EEPROM.
#pragma once

#include <cstdint>
#include <vector>

namespace openflint::sim {

class SimDevice;

// mtcr/pci/PciVpd.h encoding of: ID "<device name> simulated adapter card" (or "switch"),
// PN "<catalog part number>-SIM", EC "A1", SN from the running image's base GUID (its low 40 bits
// in hex: one per board), else "SIM0000000000" (no firmware runs), V0 "openflint hcasim".
// Adapters only: a switch ASIC has no PCI VPD (empty).
[[nodiscard]] std::vector<std::uint8_t> board_vpd(const SimDevice& device);

}  // namespace openflint::sim
