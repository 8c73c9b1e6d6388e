// PciConfigRestore: the host-assigned registers of a function's config header written back from
// a saved copy, in a safe order (the command register, which enables decoding, last).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/Result.h"

namespace openflint {

// One register written back: `mask` selects the bits taken from the saved copy; the rest of the
// dword is written as 0 (the RW1C status bits of command/status and the PCIe control registers
// are then left alone).
struct PciRestoreRegister {
  const char* name;  // "BAR0", "command", "PCIe device control", ...
  std::uint32_t offset;
  std::uint32_t mask;
};

// The registers a reset (or anything else) may clear that the host assigned, in restore order:
// BAR0..BAR5, cache line size/latency timer, interrupt line, the PCIe device control, link
// control and device control 2 (where `saved` has the PCIe capability), then the command
// register. Never 0x58..0x5f (the CR-space window of the pre-VSEC parts) nor the vendor
// capability (the VSEC gateway): writing them is a CR-space access, not a configuration.
[[nodiscard]] std::vector<PciRestoreRegister> restorable_pci_registers(const std::vector<std::uint8_t>& saved);

// A register whose masked value in `now` differs from `saved`.
struct PciRegisterDifference {
  PciRestoreRegister reg;
  std::uint32_t now = 0;    // masked
  std::uint32_t saved = 0;  // masked
};

// The restorable registers that differ, in restore order (both buffers as read_pci_config gives
// them; a register past the end of either is left out).
[[nodiscard]] std::vector<PciRegisterDifference> pci_config_differences(const std::vector<std::uint8_t>& saved,
                                                                      const std::vector<std::uint8_t>& now);

// Writes each restorable register of `saved` that differs from `now` into <device_dir>/config, in
// order, then reads the config back and checks every non-BAR register took its value (a BAR reads
// back masked by its size). Returns "<BDF> <register>" per register written. Io when a write
// fails or a register reads back otherwise.
[[nodiscard]] Result<std::vector<std::string>> restore_pci_config(const std::filesystem::path& device_dir,
                                                                  const std::vector<std::uint8_t>& saved,
                                                                  const std::vector<std::uint8_t>& now);

}  // namespace openflint
