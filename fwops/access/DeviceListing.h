// DeviceListing: what `mst status` shows of each Mellanox PCI function — ids, catalog device, MST
// names, the access methods that work (and why one does not), driver, RDMA and net interfaces.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "fwops/SafetyFacts.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/pci/PciFunctionList.h"

namespace openflint {

// One way to CR-space, tried by reading the hw id (0xf0014): works, or the reason it does not.
struct AccessProbe {
  bool works = false;
  std::optional<std::uint32_t> hw_id_word;  // the word read when it works
  std::string reason;                       // when it does not
};

struct PciDeviceStatus {
  MellanoxFunction function;
  const DeviceInfo* info = nullptr;  // catalog record by PCI id (either mode); null: not a catalog function, never opened
  bool recovery = false;             // the function shows its device's flash-recovery PCI id
  AccessProbe config;                // the config-space gateway (VSEC or the 0x58 window)
  AccessProbe bar;                   // BAR0 mapped from resource0
  std::string driver;                // the bound kernel driver (sysfs `driver` link); empty: none
  std::vector<std::string> rdma;     // <function>/infiniband/* (mlx5_0)
  std::vector<std::string> net;      // <function>/net/* (ens1f0np0)
  std::optional<int> numa_node;      // absent or -1: unknown
  std::optional<RunningFirmware> running;  // MGIR through the ICMD mailbox (read once), when it has one
  // The running firmware: MGIR through the ICMD mailbox (VSEC devices), else the RDMA device's
  // fw_ver (what the driver reports); empty: unknown. fw_source says which ("mgir", "driver").
  std::string fw_version;
  std::string fw_source;
  // Each port's protocol since the last boot ("InfiniBand", "Ethernet"; fwops/registers/NvConfig.h), read
  // from the running firmware's configuration; empty: unknown.
  std::vector<std::string> port_protocols;
  // With ListingOptions::safety_facts: the device's safety facts (fwops/SafetyFacts.h), or why
  // they could not be read (safety_error: the flash could not be read, or the function not opened).
  std::optional<SafetyFacts> safety;
  std::string safety_error;
};

struct ListingOptions {
  bool probe_access = true;  // false: sysfs facts only, CR-space is not touched
  // With probe_access: also query each opened function's flash and firmware for its safety facts
  // (query_safety_facts; mst status --json). Reads the boot copy's query sections.
  bool safety_facts = false;
};

// Every vendor-0x15b3 function under <sysfs_root>/devices in BDF order. Reads only attribute
// files and, when probing, the hw id through each method and MGIR once, with the function opened
// once as flint opens it (the device lock in OPENFLINT_RUN_DIR, waited for 200 ms: a device
// another tool holds is reported busy). No flash access, unless options.safety_facts. NotFound when <sysfs_root>/devices is
// not a directory, Io when the root is a dead FUSE mount (check_sysfs_root); an empty tree is an
// empty list.
[[nodiscard]] Result<std::vector<PciDeviceStatus>> list_pci_devices(const std::filesystem::path& sysfs_root,
                                                                    const ListingOptions& options = {});

}  // namespace openflint
