// BootRom: the simulated boot ROM — the shared copy-selection rule (image/BootCopy) plus the PCI id it comes up with.
#include "sim/BootRom.h"

#include "image/BootCopy.h"

namespace openflint::sim {

bool copy_is_bootable(ImageFormat format, Bytes flash, std::uint64_t offset) {
  return openflint::copy_bootable(format, flash, offset);
}

BootState run_boot_rom(const DeviceInfo& info, Bytes flash, std::optional<std::uint64_t> boot_address) {
  BootState state;
  state.pci_device_id = info.pci_recovery_id;
  const auto copy = find_boot_copy(info.image_format, flash, boot_address);
  if (!copy) return state;
  state.recovery = false;
  state.booted_address = copy->start;
  state.running = copy->query;
  state.pci_device_id = info.pci_device_id;
  return state;
}

}  // namespace openflint::sim
