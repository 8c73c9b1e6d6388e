// PciServe: serves simulated devices as PCI functions (config space over FUSE, BAR0 in shared memory).
#include "hcasim/PciServe.h"
#include "cli/JsonOutput.h"

#include <signal.h>

#include <cstdint>
#include <ctime>
#include <iostream>
#include <memory>
#include <mutex>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "core/Interrupt.h"
#include "fwops/Device.h"
#include "mtcr/pci/PciAddress.h"
#include "pcisim/FuseSysfs.h"
#include "pcisim/Mlx5TracerDriver.h"
#include "pcisim/TraceFs.h"
#include "sim/BarServer.h"

namespace openflint::hcasim {
namespace {

using nlohmann::json;

int fail(const Error& error, bool json_out) { return cli::report_error(error, json_out); }

// Blocks the stop signals in this thread before any server thread starts (threads inherit the
// mask), so only sigtimedwait below receives them.
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

Result<PciAddress> address_of(const PciServeArgs& args, std::size_t i) {
  if (i < args.bdfs.size()) return parse_pci_address(args.bdfs[i]);
  PciAddress a;
  a.bus = static_cast<std::uint8_t>(3 + i);
  return a;
}

// One served device and its saving: a client's fsync (on a FUSE thread) and the main loop (idle
// saves) save it, one at a time.
struct Served {
  explicit Served(Device opened) : device(std::move(opened)) {}

  // Saves the device when it changed since the last save (SimDevice::changes()); `when_idle`:
  // only if it did not change since the last idle check either. False when the save failed
  // (said once on stderr per distinct error: the main loop retries every poll).
  bool save(bool when_idle) {
    std::lock_guard guard(save_mutex);
    if (bar) bar->settle();  // the tool's last stores (its lock release) belong to the state
    const std::uint64_t now = device.simulator()->changes();
    const bool quiet = now == seen_changes;
    if (when_idle) seen_changes = now;
    if (now == saved_changes || (when_idle && !quiet)) return true;
    if (auto saved = device.commit(); !saved) {
      if (saved.error().message() != last_error) std::cerr << "-E- " << saved.error().message() << '\n';
      last_error = saved.error().message();
      return false;
    }
    saved_changes = now;
    last_error.clear();
    return true;
  }

  // The driver bound now: mlx5_core on a family whose tracer logs to host memory runs the
  // simulated driver's tracer; any other (or none) stops it.
  void bind(const std::string& driver) {
    std::lock_guard guard(driver_mutex);
    sim::SimDevice& sim = *device.simulator();
    const FirmwareTracerInfo* tracer = sim.info().tracer;  // the driver the catalog says reads it
    const bool traces = tracer != nullptr && tracer->host_memory_mode && !tracer->driver.empty() && driver == tracer->driver;
    if (!traces) {
      tracer_driver.reset();
    } else if (!tracer_driver) {
      tracer_driver = pcisim::Mlx5TracerDriver::start(sim, dbdf, tracefs);
    }
  }

  Device device;
  std::string dbdf;
  pcisim::TraceFs* tracefs = nullptr;
  std::mutex driver_mutex;
  std::unique_ptr<pcisim::Mlx5TracerDriver> tracer_driver;
  std::unique_ptr<sim::BarServer> bar;
  std::mutex save_mutex;
  std::uint64_t saved_changes = 0;  // SimDevice::changes() at the last save (or the load)
  std::uint64_t seen_changes = 0;   // ... at the last idle check
  std::string last_error;
};

}  // namespace

int run_pci_serve(const PciServeArgs& args, bool json_out) {
  if (args.paths.empty()) return fail(Error(ErrorCode::InvalidArgument, "no device directories given"), json_out);
  if (!args.bdfs.empty() && args.bdfs.size() != args.paths.size())
    return fail(Error(ErrorCode::InvalidArgument, "--bdf given " + std::to_string(args.bdfs.size()) + " times for " +
                                                      std::to_string(args.paths.size()) + " devices"),
                json_out);
  if (args.drivers.size() > args.paths.size())
    return fail(Error(ErrorCode::InvalidArgument, "--driver given " + std::to_string(args.drivers.size()) + " times for " +
                                                      std::to_string(args.paths.size()) + " devices"),
                json_out);
  const sigset_t signals = stop_signals();
  std::unique_ptr<pcisim::TraceFs> tracefs;
  if (!args.tracefs.empty()) {
    auto made = pcisim::TraceFs::create(args.tracefs);
    if (!made) return fail(made.error().with_context("--tracefs"), json_out);
    tracefs = std::move(*made);
  }
  std::vector<std::unique_ptr<Served>> served;  // stable addresses: the FUSE hooks point at them
  std::vector<pcisim::ServedDevice> tree;
  json listing = json::array();
  for (std::size_t i = 0; i < args.paths.size(); ++i) {
    auto address = address_of(args, i);
    if (!address) return fail(address.error(), json_out);
    auto device = open_device("sim:" + args.paths[i]);
    if (!device) return fail(device.error(), json_out);
    served.push_back(std::make_unique<Served>(std::move(*device)));
    Served& current = *served.back();
    current.dbdf = address->to_string();
    current.tracefs = tracefs.get();
    sim::SimDevice& sim = *current.device.simulator();
    if (args.no_reset_register) {
      sim::SimFaults faults = sim.faults();
      faults.no_reset_register = true;
      sim.set_faults(faults);
    }
    pcisim::ServedDevice entry;
    entry.address = *address;
    entry.device = &sim;
    entry.reset_clears_config = args.reset_clears_config;
    if (i < args.drivers.size() && args.drivers[i] != "-") entry.driver = args.drivers[i];
    if (!args.no_bar) {
      sim::BarServerOptions bar_options;
      bar_options.directory = args.shm_dir;
      auto bar = sim::BarServer::start(sim, bar_options);
      if (!bar) return fail(bar.error().with_context(args.paths[i] + ": starting its BAR"), json_out);
      entry.bar0_size = (*bar)->bar_size();
      entry.resource0_target = (*bar)->path();
      entry.on_reset = [bar = bar->get()] { bar->resync_from_model(); };  // the reset's new state in the BAR
      entry.on_open = [bar = bar->get()] { bar->wake(); };                 // a tool is starting
      current.bar = std::move(*bar);
    }
    current.saved_changes = current.seen_changes = sim.changes();
    entry.on_sync = [&current] { return current.save(false); };  // a tool's command ended
    entry.on_driver_change = [&current](const std::string& driver) { current.bind(driver); };
    tree.push_back(entry);
    listing.push_back({{"bdf", address->to_string()}, {"path", args.paths[i]}, {"model", std::string(sim.info().sim_model)},
                       {"driver", entry.driver.empty() ? json(nullptr) : json(entry.driver)},
                       {"bar", entry.resource0_target ? json(entry.resource0_target->string()) : json(nullptr)}});
  }
  auto fuse = pcisim::FuseSysfs::mount(args.sysfs, tree);
  if (!fuse) return fail(fuse.error(), json_out);
  for (std::size_t i = 0; i < served.size(); ++i) served[i]->bind(tree[i].driver);
  if (json_out) {
    std::cout << cli::versioned(json{{"ok", true}, {"ready", true}, {"sysfs", args.sysfs},
                                     {"tracefs", args.tracefs.empty() ? json(nullptr) : json(args.tracefs)}, {"devices", listing}}).dump() << std::endl;
  } else {
    std::cout << "ready: serving " << served.size() << " device(s) at " << args.sysfs << std::endl;
  }
  // Config-space side effects change the model behind the BARs' backs: every poll of the signal
  // wait (a quarter second) shows the models in the BAR files again (a BAR tool's stores not yet
  // relayed are kept, sim/BarServer.h).
  // SIGPIPE (a vanished reader of the ready line) is not in the set: the tool boundary's handler
  // records it (core/Interrupt.h) and the server stops the same orderly way.
  int stop = 0;
  while (stop <= 0) {
    const timespec quarter{0, 250'000'000};
    stop = sigtimedwait(&signals, nullptr, &quarter);
    if (stop <= 0 && interrupted()) stop = interrupt_signal();
    if (stop > 0) break;
    for (auto& s : served) {
      if (s->bar) s->bar->resync_from_model();
      // Changed, then quiet for a whole poll: saved, so the work of tools that never ask for a
      // save (mstflint, setpci) survives a killed server too, all but its last half second.
      (void)s->save(true);
    }
  }
  fuse->reset();  // unmount first: no client reaches a device being saved
  int rc = cli::kOk;
  for (auto& s : served) {
    s->bind("");  // the driver goes: it gives the tracer back
    s->bar.reset();
    if (auto saved = s->device.commit(); !saved) rc = fail(saved.error(), false);
  }
  if (!json_out) std::cerr << "hcasim: stopped (signal " << stop << "), devices saved\n";
  return rc;
}

}  // namespace openflint::hcasim
