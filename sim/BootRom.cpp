// BootRom: the simulated boot ROM — the shared copy-selection rule (image/BootCopy) plus the PCI id it comes up with.
#include "sim/BootRom.h"

#include "image/BootCopy.h"

namespace openflint::sim {
namespace {

ImageFormat image_format_of(ImageFormatId format) {
  switch (format) {
    case ImageFormatId::Fs1: return ImageFormat::Fs1;
    case ImageFormatId::Fs2: return ImageFormat::Fs2;
    case ImageFormatId::Fs3: return ImageFormat::Fs3;
    case ImageFormatId::Fs4: return ImageFormat::Fs4;
  }
  return ImageFormat::Fs3;
}

}  // namespace

bool copy_is_bootable(ImageFormatId format, Bytes flash, std::uint64_t offset) {
  return openflint::copy_bootable(image_format_of(format), flash, offset);
}

BootState run_boot_rom(const DeviceInfo& info, Bytes flash, std::optional<std::uint64_t> boot_address) {
  BootState state;
  state.pci_device_id = info.pci_recovery_id;
  const auto copy = find_boot_copy(image_format_of(info.image_format), flash, boot_address);
  if (!copy) return state;
  state.recovery = false;
  state.booted_address = copy->start;
  state.running = copy->query;
  state.pci_device_id = info.pci_device_id;
  return state;
}

}  // namespace openflint::sim
