// SimFabric: an ibsim fabric (one switch + N HCAs) with opensm run once and device responders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "core/ChildProcess.h"

namespace openflint {

class SimFabric {
 public:
  struct Options {
    std::size_t hcas = 2;                 // nodes "Hca1".."HcaN", HcaI on switch port I
    std::uint16_t vendor_id = 0x02c9;
    std::uint16_t switch_device_id = 0xcb84;
    std::uint16_t hca_device_id = 0x1013;
    std::vector<std::uint16_t> hca_device_ids;  // per HCA (Hca1 first); empty: hca_device_id for all
    // More switches "Switch2", "Switch3", ..., with these device ids: SwitchK hangs off Switch1's
    // port kSwitchPorts + 2 - K (36, 35, ...), so HCAs and switches never share a port.
    std::vector<std::uint16_t> extra_switch_device_ids;
    // An ibsim topology text to use instead of the one built from the fields above (e.g. what
    // ibtopogen --ibsim writes); then local_node names the node clients and opensm attach through.
    std::string topology;
    std::string local_node;                     // empty: Hca1
    // The node GUID ibsim gives these nodes (the GUID their device's flash holds, so a device
    // reached out-of-band is matched to its node). ibsim numbers the nodes after such a node
    // on from its GUID (the topology's caguid=/switchguid= lines set a base).
    std::map<std::string, std::uint64_t> node_guids;
    std::filesystem::path dir;                  // empty: a temp dir removed on destruction
    std::filesystem::path preload = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
    int start_timeout_ms = 10000;
  };
  static constexpr const char* kSwitch = "Switch1";
  static constexpr std::size_t kSwitchPorts = 36;

  // Creates the temp dir and topology, starts ibsim, runs opensm once. Needs ibsim and opensm.
  [[nodiscard]] static Result<std::unique_ptr<SimFabric>> start(const Options& options);
  [[nodiscard]] static Result<std::unique_ptr<SimFabric>> start() { return start(Options{}); }
  ~SimFabric();
  SimFabric(const SimFabric&) = delete;
  SimFabric& operator=(const SimFabric&) = delete;

  [[nodiscard]] static std::string hca(std::size_t index) { return "Hca" + std::to_string(index); }
  [[nodiscard]] static std::string extra_switch(std::size_t k) { return "Switch" + std::to_string(k); }
  // Directed route from Hca1 to `node`, as used in ibdr-... names ("0.1" switch, "0.1.I" HcaI,
  // "0.1.P" SwitchK on Switch1's port P).
  [[nodiscard]] static std::string dr_path(const std::string& node);

  // Starts a responder process attached to `node`; waits for its "ready" line.
  [[nodiscard]] Result<pid_t> start_responder(const std::string& node, const std::vector<std::string>& argv);
  // Stops the responder of `node` (SIGTERM, wait); returns its exit code.
  [[nodiscard]] Result<int> stop_responder(const std::string& node);
  // The environment a client of `node` needs (LD_PRELOAD, SIM_HOST, IBSIM_SOCKNAME, ...).
  [[nodiscard]] std::map<std::string, std::string> client_env(const std::string& node) const;
  // Runs a client under the preload as `node` (cwd = the fabric dir) and captures its output;
  // the preload dir (sys-<pid>) of a client a signal ended is removed.
  [[nodiscard]] Result<CapturedRun> run(const std::string& node, const std::vector<std::string>& argv,
                                        int timeout_ms = 60000) const;
  // Runs one ibsim console command (e.g. `PerformanceSet "leaf-1"[3] PortCounters.SymbolErrorCounter=7`)
  // and returns what ibsim printed for it. ibsim reads its console from the FIFO D/ibsim.console,
  // which the fabric holds open; its output goes to D/ibsim.log.
  [[nodiscard]] Result<std::string> console(const std::string& command) const { return console_in(dir_, command); }
  // The same for the fabric whose directory is `dir` (e.g. from another process: simfabric console).
  [[nodiscard]] static Result<std::string> console_in(const std::filesystem::path& dir, const std::string& command,
                                                      int timeout_ms = 5000);
  // The LID opensm gave `node`'s port 1.
  [[nodiscard]] Result<std::uint16_t> lid_of(const std::string& node) const;
  // Everything a responder printed so far.
  [[nodiscard]] std::string responder_output(const std::string& node) const;

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] const std::string& socket_name() const { return socket_; }
  // The node clients attach through (Options::local_node, else Hca1).
  [[nodiscard]] std::string local_node() const { return options_.local_node.empty() ? hca(1) : options_.local_node; }
  // Pids of the long-lived processes (ibsim and responders) started so far.
  [[nodiscard]] std::vector<pid_t> pids() const { return pids_; }
  // Stops responders, then ibsim (SIGTERM + wait); fails if a process needed SIGKILL or a
  // preload sys-<pid> dir was left behind. The temp dir is removed on destruction.
  [[nodiscard]] Result<void> shutdown();

 private:
  explicit SimFabric(Options options) : options_(std::move(options)) {}
  [[nodiscard]] Result<void> boot();
  [[nodiscard]] std::string topology() const;
  [[nodiscard]] bool socket_listening() const;

  Options options_;
  std::filesystem::path dir_;
  std::string socket_;
  std::optional<ChildProcess> ibsim_;
  int console_fd_ = -1;  // the console FIFO, held open (read+write) so ibsim never reads its end
  std::map<std::string, ChildProcess> responders_;
  std::vector<pid_t> pids_;
  bool shut_down_ = false;
  bool own_dir_ = true;
};

}  // namespace openflint
