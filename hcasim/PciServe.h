// PciServe: `hcasim pci-serve`, simulated devices behind a FUSE-served sysfs PCI tree and shared-memory BARs.
#pragma once

#include <string>
#include <vector>

namespace openflint::hcasim {

struct PciServeArgs {
  std::vector<std::string> paths;  // simulated device directories (hcasim create)
  std::string sysfs;               // mount point: the served tree's root (its devices/ folder)
  std::vector<std::string> bdfs;   // per device; empty: 0000:03:00.0, 0000:04:00.0, ...
  std::string shm_dir = "/dev/shm";
  bool no_bar = false;             // serve config space only (no resource0)
  bool no_reset_register = false;    // the firmware answers MFRL "not supported" (sim::SimFaults)
  bool reset_clears_config = false;  // a reset leaves BAR0/command cleared (an unwrapped bus reset)
  std::vector<std::string> drivers;  // per device: a simulated kernel driver bound at start ("-": none)
  // The tracing directory served beside the sysfs tree (pcisim/TraceFs.h): a device bound to
  // mlx5_core has a simulated driver take its firmware tracer and write the mlx5_fw lines there.
  // Empty: the driver still takes the tracer, no lines are written (no tracefs mounted).
  std::string tracefs;
};

// A device bound to the simulated mlx5_core (at start or later through drivers/mlx5_core/bind)
// gets a simulated driver whose tracer takes the firmware tracer (pcisim/Mlx5TracerDriver.h);
// an unbind stops it and gives ownership back.
// Locks and loads each device, serves them until SIGTERM/SIGINT/SIGHUP, then unmounts, stops
// the BARs and saves every device. Prints one "ready" line (JSON with --json) once mounted.
// While serving, a device that changed is saved (atomically, as Device::commit) when a client
// fsyncs one of its files (our tools, at the end of each command) before the fsync returns, and
// when it stayed unchanged for a poll of the main loop (a quarter second): a killed server
// loses nothing a tool of ours reported done.
int run_pci_serve(const PciServeArgs& args, bool json);

}  // namespace openflint::hcasim
