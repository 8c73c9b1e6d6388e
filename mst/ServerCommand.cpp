// ServerCommand: `mst server` — serve this host's devices with the legacy bus-server protocol (mstmtserver 1.4).
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/SignalStopper.h"
#include "fwops/access/DeviceListing.h"
#include "mst/Commands.h"
#include "mst/ServerSetup.h"
#include "mtcr/pci/PciDeviceName.h"
#include "remote/BusServer.h"
#include "remote/BusSession.h"
#include "remote/StdioBusChannel.h"

namespace openflint::mst {
namespace {

struct ServerArgs {
  std::string listen = "127.0.0.1";
  int port = kBusDefaultPort;
  std::vector<std::string> allow;
  bool read_only = false;
  bool allow_reset = false;
  bool allow_unbind = false;
  bool inband = false;  // serve the fabric's nodes (lid-N) swept from this host's HCA
  std::string ca;
  int ca_port = 0;
  double idle_timeout_s = 300;
  std::size_t max_sessions = BusServerOptions::kDefaultMaxSessions;
  bool stdio = false;
  std::string audit_log;
  std::string sysfs;  // empty: default_sysfs_root()
  std::vector<std::string> devices;
};

// The DEVICE arguments, or without any the host's default list: the catalog functions `mst
// status` lists (each by its MST name), found without touching CR-space. A PCI name among the
// arguments must name a catalog function (mtcr/pci/PciFunctionIds.h): a server never offers another
// vendor's function, and a mistyped address stops it at the start, not at a client's open.
// A long-running server with a thread per session: glibc would give each thread its own malloc
// arena (64 MiB of address space each, up to 8 per core), whose freed memory it rarely returns,
// and raise its mmap threshold after the first large free, so a simulated device's flash freed
// at a session's end would stay in the heap. Two arenas and a fixed threshold keep the address
// space and the resident memory of many sessions bounded and returned when they end.
void bound_malloc_for_sessions() {
  constexpr int kArenas = 2;
  constexpr int kMmapThresholdBytes = 128 * 1024;  // glibc's initial value, kept fixed
  (void)::mallopt(M_ARENA_MAX, kArenas);
  (void)::mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
}

int run_server(const ServerArgs& a, const Common& common) {
  ::signal(SIGPIPE, SIG_IGN);  // a vanished client is a failed send, not the end of the server
  bound_malloc_for_sessions();
  auto audit = make_audit_log(a.audit_log);
  if (!audit) return cli::report_error(audit.error(), common.json);
  const auto idle = std::chrono::milliseconds(static_cast<long long>(a.idle_timeout_s * 1000));
  const std::filesystem::path root = a.sysfs.empty() ? default_sysfs_root() : std::filesystem::path(a.sysfs);
  auto devices = a.inband ? inband_served_devices(a.devices, a.ca, a.ca_port) : served_devices(a.devices, root);
  if (!devices) return cli::report_error(devices.error(), common.json);
  if (a.stdio) {
    auto channel = StdioBusChannel::open(STDIN_FILENO, STDOUT_FILENO);
    if (!channel) return cli::report_error(channel.error(), common.json);
    BusSessionOptions options;
    options.devices = *devices;
    options.read_only = a.read_only;
    options.allow_reset = a.allow_reset;
    options.allow_unbind = a.allow_unbind;
    options.idle_timeout = idle;
    options.open_options.sysfs_root = root;
    options.peer = "stdio";
    options.audit = *audit;
    BusSession session(*channel, std::move(options));
    (void)session.run();  // EOF on stdin is the normal end
    return cli::kOk;
  }
  BusServerOptions options;
  options.listen_address = a.listen;
  options.port = static_cast<std::uint16_t>(a.port);
  for (const auto& cidr : a.allow) {
    auto network = ClientNetwork::parse(cidr);
    if (!network) return cli::report_error(network.error(), common.json);
    options.allow.push_back(*network);
  }
  options.read_only = a.read_only;
  options.allow_reset = a.allow_reset;
  options.allow_unbind = a.allow_unbind;
  options.idle_timeout = idle;
  options.max_sessions = a.max_sessions;
  options.devices = *devices;
  options.sysfs_root = root;
  options.audit = *audit;
  auto server = BusServer::listen(std::move(options));
  if (!server) return cli::report_error(server.error(), common.json);
  Result<void> served;
  {
    cli::SignalStopper stopper([&server] { (*server)->stop(); });
    const bool v6 = a.listen.find(':') != std::string::npos;
    std::cerr << "-I- serving " << devices->size() << " device(s) on " << (v6 ? "[" + a.listen + "]" : a.listen) << ":"
              << (*server)->port()
              << (a.read_only ? " (read-only)" : "")
              << (a.allow_reset && !a.read_only ? (a.allow_unbind ? " (resets allowed, drivers unbound)" : " (resets allowed)") : "")
              << std::endl;
    served = (*server)->serve();
  }
  if (!served) return cli::report_error(served.error(), common.json);
  return cli::kOk;
}

}  // namespace

void add_server_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  auto args = std::make_shared<ServerArgs>();
  CLI::App* server = app.add_subcommand(
      "server", "serve DEVICEs to remote tools with the legacy bus-server protocol (mstmtserver 1.4); "
                "no authentication: loopback only unless --allow names the client networks");
  server->add_option("--listen", args->listen, "IPv4 or IPv6 address to listen on (default 127.0.0.1; ::1 for IPv6 loopback)");
  server->add_option("--port", args->port, "TCP port (default 23108; 0: any free port, printed)")
      ->check(CLI::Range(0, 65535));
  server->add_option("--allow", args->allow, "client network allowed to connect, IPv4 or IPv6 CIDR (repeatable)")
      ->allow_extra_args(false);  // one CIDR per --allow: what follows is a DEVICE
  server->add_flag("--read-only", args->read_only,
                   "answer queries only: reads, register queries and the gateway commands of flash reads; "
                   "refuse erases, programs and every other write");
  server->add_flag("--allow-reset", args->allow_reset,
                   "answer a client's reset request (X) with the safe reset of `mst reset` (level 3 now or 4 armed), "
                   "audited; refused by default");
  server->add_flag("--allow-unbind", args->allow_unbind,
                   "with --allow-reset: a reset may unbind the drivers bound to the device and bind them again "
                   "(`mst reset --unbind`); without it a bound driver refuses the reset")
      ->needs("--allow-reset");
  server->add_option("--idle-timeout", args->idle_timeout_s, "close a connection idle this many seconds (default 300)")
      ->check(CLI::PositiveNumber);
  server->add_option("--max-sessions", args->max_sessions,
                     "sessions at once (default " + std::to_string(BusServerOptions::kDefaultMaxSessions) +
                         "); more clients get \"E server busy\"")
      ->check(CLI::Range(1, 1024));
  server->add_flag("--stdio", args->stdio, "serve one session on stdin/stdout instead of TCP");
  server->add_option("--audit-log", args->audit_log, "append the audit lines to FILE (default stderr)");
  server->add_option("--sysfs", args->sysfs, "PCI sysfs root for the default list and PCI names "
                                            "(default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  server->add_flag("--inband", args->inband,
                   "the in-band server: also serve every node of the fabric swept from this host's HCA, as lid-N "
                   "(vendor MADs; the list is taken once, at the start)");
  server->add_option("--ca", args->ca, "with --inband: the local CA to sweep and send MADs from (default: the first)");
  server->add_option("--ca-port", args->ca_port, "with --inband: its port (default: the first active)");
  server->add_option("DEVICE", args->devices,
                     "devices to serve (what L lists and O may open); none: the PCI functions `mst status` lists");
  server->callback([&run, &common, args] { run = [&common, args] { return run_server(*args, common); }; });
}

}  // namespace openflint::mst
