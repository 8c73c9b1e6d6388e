// BootState: what a simulated device's boot ROM chose at the last power-on or reset.
#pragma once

#include <cstdint>
#include <optional>

#include "image/ImageQuery.h"

namespace openflint::sim {

struct BootState {
  bool recovery = true;              // no bootable copy: "flash recovery" (livefish) mode
  std::uint64_t booted_address = 0;  // flash address of the copy that runs (FS1: its image)
  std::optional<ImageQuery> running;  // query of the running copy; nullopt in recovery
  std::uint16_t pci_device_id = 0;    // normal id, or the catalog's recovery id in recovery
  // The running firmware stopped answering: the flash was erased or programmed through the
  // CR-space gateway while it owned it (SimDevice::firmware_owns_flash). Until the next boot.
  bool firmware_hung = false;
};

}  // namespace openflint::sim
