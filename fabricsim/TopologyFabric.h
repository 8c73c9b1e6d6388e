// TopologyFabric: a topology file brought up with a device on every node, served by one FabricServer (simfabric up --firmware).
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "core/Result.h"
#include "fabricsim/FabricServer.h"
#include "fabricsim/SimTopology.h"
#include "fabricsim/TopologyDevices.h"

namespace openflint {

class TopologyFabric {
 public:
  struct Options {
    std::string topology;          // ibsim topology text (ibtopogen --ibsim)
    std::string attach;            // the node clients attach through (empty: the first CA)
    TopologyDeviceOptions devices;  // base_dir empty: DIR/base
    std::filesystem::path dir;     // the fabric directory (created)
    std::filesystem::path preload = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
  };

  // Parses the topology, builds the devices, binds the sockets. Nothing runs until serve_for.
  [[nodiscard]] static Result<std::unique_ptr<TopologyFabric>> start(const Options& options);

  [[nodiscard]] Result<void> serve_for(int ms, const std::atomic<bool>& stop) { return server_->serve_for(ms, stop); }
  // DIR/stats.json: the server's MAD counters, this process's CPU time and memory (VmRSS, VmHWM,
  // RssAnon: the pages it owns, Pss: its share of mapped files — VmRSS counts a base-flash page
  // once per device that mapped it), node and device counts, the time the start took, and
  // stats_cpu_us: the CPU the earlier write_stats calls took (reading smaps_rollup of a process
  // with a thousand flash mappings takes a while) — subtract its growth between two samples.
  [[nodiscard]] Result<void> write_stats();
  // DIR/boot.txt: per node with a device, what its boot ROM would boot at a power-on now (the
  // flash as it is; nothing changes: locks, running firmware, boot-address register), as lines
  // "NAME<TAB>lid-N<TAB>FW-VERSION<TAB>BASE-GUID" ("recovery -": no bootable copy). simfabric:
  // on SIGUSR2.
  [[nodiscard]] Result<void> write_boot_report() const;
  // LD_PRELOAD, SIM_HOST (the attach node), IBSIM_SOCKNAME: what a client needs.
  [[nodiscard]] std::map<std::string, std::string> client_env() const;
  // One line per node: name, model (or "-"), lid-N, node GUID.
  [[nodiscard]] std::string node_table() const;

  [[nodiscard]] const SimTopology& topology() const { return topology_; }
  [[nodiscard]] const TopologyDevices& devices() const { return *devices_; }
  [[nodiscard]] const std::string& socket_name() const { return socket_; }
  [[nodiscard]] const std::string& attach_node() const { return attach_; }

 private:
  TopologyFabric() = default;

  Options options_;
  SimTopology topology_;
  std::unique_ptr<TopologyDevices> devices_;
  std::unique_ptr<FabricServer> server_;
  std::string socket_;
  std::string attach_;
  std::chrono::milliseconds start_time_{0};
  long long stats_cpu_us_ = 0;  // spent in write_stats so far
};

}  // namespace openflint
