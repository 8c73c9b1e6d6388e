// PciConfigRestore: which header registers are written back, in which order, and the check after.
#include "mtcr/pci/PciConfigRestore.h"

#include <string_view>

#include "core/HexString.h"
#include "mtcr/pci/PciConfigFile.h"

namespace openflint {
namespace {

constexpr std::uint8_t kPcieCapabilityIdForRestore = 0x10;

bool within_config(const std::vector<std::uint8_t>& bytes, std::uint32_t offset) { return offset + 4 <= bytes.size(); }

}  // namespace

std::vector<PciRestoreRegister> restorable_pci_registers(const std::vector<std::uint8_t>& saved) {
  std::vector<PciRestoreRegister> regs;
  static const char* const kBars[] = {"BAR0", "BAR1", "BAR2", "BAR3", "BAR4", "BAR5"};
  for (std::uint32_t i = 0; i < 6; ++i) regs.push_back({kBars[i], 0x10 + 4 * i, 0xffffffff});
  regs.push_back({"cache line size/latency timer", 0x0c, 0x0000ffff});
  regs.push_back({"interrupt line", 0x3c, 0x000000ff});
  if (const std::uint32_t pcie = find_pci_capability(saved, kPcieCapabilityIdForRestore); pcie != 0) {
    regs.push_back({"PCIe device control", pcie + 0x08, 0x0000ffff});
    regs.push_back({"PCIe link control", pcie + 0x10, 0x0000ffff});
    regs.push_back({"PCIe device control 2", pcie + 0x28, 0x0000ffff});
  }
  regs.push_back({"command", 0x04, 0x0000ffff});  // last: decoding is enabled once the BARs are back
  return regs;
}

std::vector<PciRegisterDifference> pci_config_differences(const std::vector<std::uint8_t>& saved,
                                                          const std::vector<std::uint8_t>& now) {
  std::vector<PciRegisterDifference> out;
  for (const auto& r : restorable_pci_registers(saved)) {
    if (!within_config(saved, r.offset) || !within_config(now, r.offset)) continue;
    const std::uint32_t want = config_dword(saved, r.offset) & r.mask;
    const std::uint32_t got = config_dword(now, r.offset) & r.mask;
    if (want != got) out.push_back({r, got, want});
  }
  return out;
}

Result<std::vector<std::string>> restore_pci_config(const std::filesystem::path& device_dir,
                                                    const std::vector<std::uint8_t>& saved,
                                                    const std::vector<std::uint8_t>& now) {
  const std::string bdf = device_dir.filename().string();
  std::vector<std::string> written;
  for (const auto& d : pci_config_differences(saved, now)) {
    OF_TRY(write_pci_config32(device_dir, d.reg.offset, d.saved));
    written.push_back(bdf + " " + d.reg.name);
  }
  OF_ASSIGN(const auto after, read_pci_config(device_dir));
  for (const auto& r : restorable_pci_registers(saved)) {
    if (!within_config(saved, r.offset) || !within_config(after, r.offset)) continue;
    const std::uint32_t want = config_dword(saved, r.offset) & r.mask;
    const std::uint32_t got = config_dword(after, r.offset) & r.mask;
    // BARs read back masked by their size; compare what the device keeps of what was written.
    if (got != want && !std::string_view(r.name).starts_with("BAR"))
      return make_error(ErrorCode::Io, bdf + ": " + r.name + " reads " + hex_string(got) + " after restoring " +
                                           hex_string(want));
  }
  return written;
}

}  // namespace openflint
