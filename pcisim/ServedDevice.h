// ServedDevice: one simulated PCI function that FuseSysfs serves under devices/<BDF>/.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "mtcr/pci/PciAddress.h"
#include "sim/SimDevice.h"

namespace openflint::pcisim {

struct ServedDevice {
  PciAddress address;                   // the folder name, e.g. 0000:03:00.0
  sim::SimDevice* device = nullptr;     // not owned; must outlive the FuseSysfs serving it
  std::uint64_t bar0_size = 0x4000000;  // a power of two; BAR0 in config and `resource` line 0
  // resource0 as a symlink to this path (e.g. a shared-memory BAR file); none when empty.
  std::optional<std::filesystem::path> resource0_target;
  std::uint8_t irq = 0;
  // A (simulated) kernel driver bound at mount, e.g. "mlx5_core": devices/<BDF>/driver links to
  // drivers/<name>/, whose bind/unbind files take a BDF as the kernel's do. Empty: none bound.
  std::string driver;
  // A reset through devices/<BDF>/reset leaves the host's config settings (BAR0, command, ...)
  // cleared, as a bus reset nobody wraps would; by default they survive, as the kernel saves and
  // restores them around a function reset.
  bool reset_clears_config = false;
  // Called after a write of "1" to devices/<BDF>/reset has reset the function (by any method),
  // e.g. to show the new state in a shared-memory BAR. Runs on a FUSE thread.
  std::function<void()> on_reset;
  // Called when a file of devices/<BDF>/ is opened (a tool starting on the device), e.g. to
  // wake a shared-memory BAR server. Runs on a FUSE thread.
  std::function<void()> on_open;
  // Called when a client fsyncs a file of devices/<BDF>/ (tools do at the end of each command,
  // mtcr/pci/PciConfigFile.h sync_pci_config), before the answer: e.g. to save the device, so what
  // the tool reported done survives the server. False fails the fsync (EIO). Runs on a FUSE thread.
  std::function<bool()> on_sync;
  // Called after drivers/<name>/bind or unbind changed the driver bound to this device, with the
  // new driver's name ("" after an unbind), e.g. to start or stop a simulated driver. Runs on a
  // FUSE thread, outside the tree's locks.
  std::function<void(const std::string& driver)> on_driver_change;
};

}  // namespace openflint::pcisim
