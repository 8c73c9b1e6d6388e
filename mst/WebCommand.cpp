// WebCommand: `mst web` — the web console (web/WebServer) on loopback by default, guarded by a
// random access token printed in its URL.
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/SignalStopper.h"
#include "fabric/HostsFile.h"
#include "fabric/ImageSet.h"
#include "fwops/access/RemoteListing.h"
#include "fabric/options/SystemNameOptions.h"
#include "mst/Commands.h"
#include "mst/ServerSetup.h"
#include "mtcr/pci/PciDeviceName.h"
#include "web/AccessToken.h"
#include "web/WebServer.h"

namespace openflint::mst {
namespace {

constexpr std::uint16_t kDefaultWebPort = 23180;

struct WebArgs {
  std::string listen = "127.0.0.1:" + std::to_string(kDefaultWebPort);
  std::vector<std::string> allow;
  bool read_only = false;
  std::string audit_log;
  std::string token_file;
  std::string sysfs;
  int lock_timeout_ms = 5000;
  std::vector<std::string> devices;
  // --fabric: the Fabric page, from the fabric seen through --ca/--ca-port.
  bool fabric = false;
  std::string ca;
  int ca_port = 0;
  SystemNamingFiles naming;
  std::string hosts_file;
  std::string thresholds_file;
  std::vector<std::string> thresholds;
  std::string images;  // --images DIR: fabric updates from the page
};

// --fabric's options: the files are read before anything is served (a bad line is a usage error).
Result<FabricApiOptions> fabric_options(const WebArgs& a) {
  FabricApiOptions o;
  OF_ASSIGN(o.naming, SystemNaming::load(a.naming));
  OF_ASSIGN(o.thresholds, HealthThresholds::load(a.thresholds_file, a.thresholds));
  std::vector<RemoteHost> hosts;
  if (!a.hosts_file.empty()) {
    OF_ASSIGN(hosts, read_hosts_file(a.hosts_file));
  }
  o.source = live_fabric_source(a.ca, a.ca_port, std::move(hosts));
  if (!a.images.empty()) {
    OF_ASSIGN(ImageSet images, ImageSet::from_directory(a.images));
    o.images = std::make_shared<const ImageSet>(std::move(images));
  }
  return o;
}

// "ADDR:PORT", "[V6]:PORT", or a bare address (the default port).
Result<std::pair<std::string, std::uint16_t>> parse_listen(const std::string& text) {
  std::string address = text;
  std::string port;
  if (text.starts_with("[")) {
    const std::size_t close = text.find(']');
    if (close == std::string::npos) return make_error(ErrorCode::InvalidArgument, "--listen: no ']' in " + text);
    address = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') return make_error(ErrorCode::InvalidArgument, "--listen: expected ':PORT' after ']'");
      port = text.substr(close + 2);
    }
  } else if (const std::size_t colon = text.rfind(':'); colon != std::string::npos && text.find(':') == colon) {
    address = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (port.empty()) return std::pair{address, kDefaultWebPort};
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535)
    return make_error(ErrorCode::InvalidArgument, "--listen: bad port '" + port + "'");
  return std::pair{address, static_cast<std::uint16_t>(std::stoul(port))};
}

// Stderr as it was when the command started (a duplicate of fd 2), closed on return.
struct WebConsoleFd {
  int fd = ::dup(2);
  WebConsoleFd() = default;
  WebConsoleFd(const WebConsoleFd&) = delete;
  WebConsoleFd& operator=(const WebConsoleFd&) = delete;
  ~WebConsoleFd() {
    if (fd >= 0) ::close(fd);
  }
};

int run_web(const WebArgs& a, const Common& common) {
  ::signal(SIGPIPE, SIG_IGN);
  // The URL line goes to stderr as it is now: the server's first device queries and fabric sweeps
  // run in threads that point fd 2 at /dev/null around the InfiniBand libraries' calls
  // (core/StderrSilenced), and the line must not fall into such a moment.
  const WebConsoleFd console;
  const auto fail = [&](const Error& e) { return cli::report_error(e, common.json); };
  auto listen = parse_listen(a.listen);
  if (!listen) return fail(listen.error());
  WebOptions options;
  options.listen_address = listen->first;
  options.port = listen->second;
  for (const auto& cidr : a.allow) {
    auto network = ClientNetwork::parse(cidr);
    if (!network) return fail(network.error());
    options.allow.push_back(*network);
  }
  const std::filesystem::path root = a.sysfs.empty() ? default_sysfs_root() : std::filesystem::path(a.sysfs);
  auto devices = served_devices(a.devices, root);
  if (!devices) return fail(devices.error());
  if (!a.hosts_file.empty()) {  // the devices the hosts' bus servers list, by their remote names
    auto hosts = read_hosts_file(a.hosts_file);
    if (!hosts) return fail(hosts.error());
    DeviceOpenOptions listing;
    listing.lock_timeout = std::chrono::milliseconds(a.lock_timeout_ms);
    for (const RemoteHost& host : *hosts) {
      const RemoteHostStatus listed = list_remote_host(host, listing);
      if (!listed.error.empty()) std::cerr << "-W- " << listed.error << ": its devices are not served\n";
      for (const RemoteDeviceStatus& d : listed.devices) devices->push_back(d.name);
    }
  }
  auto audit = make_audit_log(a.audit_log);
  if (!audit) return fail(audit.error());
  options.devices = *devices;
  options.open_options.sysfs_root = root;
  options.open_options.lock_timeout = std::chrono::milliseconds(a.lock_timeout_ms);
  options.read_only = a.read_only;
  options.audit = *audit;
  if (a.fabric) {
    auto fabric = fabric_options(a);
    if (!fabric) return fail(fabric.error());
    options.fabric = std::move(*fabric);
  }
  if (!a.token_file.empty()) {
    auto token = load_or_create_token(a.token_file);
    if (!token) return fail(token.error());
    options.token = *token;
  }
  auto server = WebServer::bind(std::move(options));
  if (!server) return fail(server.error());
  Result<void> served;
  {
    cli::SignalStopper stopper([&server] { (*server)->stop(); });
    const std::string line = "-I- serving " + std::to_string(devices->size()) + " device(s)" +
                             (a.fabric ? " and the fabric" : "") + (a.read_only ? " (read-only)" : "") + " on " +
                             (*server)->url() + "\n";
    if (console.fd < 0 || ::write(console.fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      std::cerr << line << std::flush;
    served = (*server)->serve();
  }
  if (!served) return fail(served.error());
  return cli::kOk;
}

}  // namespace

void add_web_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  auto args = std::make_shared<WebArgs>();
  CLI::App* web = app.add_subcommand(
      "web", "serve the web console: devices, their registers (live), dumps and field writes, in a browser; "
             "loopback only unless --allow names the client networks; every request needs the token in the printed URL");
  web->add_option("--listen", args->listen,
                  "ADDR:PORT to listen on (default 127.0.0.1:" + std::to_string(kDefaultWebPort) +
                      "; [::1]:PORT for IPv6; port 0: any free port, printed)");
  web->add_option("--allow", args->allow, "client network allowed to connect, IPv4 or IPv6 CIDR (repeatable); "
                                          "needed to listen on a non-loopback address")
      ->allow_extra_args(false);
  web->add_flag("--read-only", args->read_only, "show only: every write is refused");
  web->add_option("--audit-log", args->audit_log, "append the audit lines (writes, refused writes) to FILE (default stderr)");
  web->add_option("--token-file", args->token_file,
                  "keep the access token in FILE (read if it exists, else a random one written there, mode 0600): "
                  "a URL that survives restarts, as the systemd unit uses");
  web->add_option("--sysfs", args->sysfs, "PCI sysfs root for the default list and PCI names "
                                         "(default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  web->add_option("--lock-timeout", args->lock_timeout_ms, "milliseconds to wait for a device another tool holds (default 5000)")
      ->check(CLI::NonNegativeNumber);
  CLI::Option* fabric = web->add_flag("--fabric", args->fabric, "add the Fabric page: the fabric's systems and cables (ibls), their firmware "
                                         "(ibfwmgr list) and health (ibmon), seen through the local CA");
  web->add_option("--ca", args->ca, "with --fabric: local CA (umad device) the fabric is swept from (default: the first)");
  web->add_option("--ca-port", args->ca_port, "with --fabric: the CA's port (default: the first active); "
                                              "the fabric tools' --port (here --listen gives the HTTP port)");
  fabriccli::add_system_name_options(*web, args->naming);
  web->add_option("--hosts", args->hosts_file, "hosts whose bus servers' devices are served too (mst server), and with "
                                               "--fabric reach fabric devices out-of-band, "
                                               "one HOST[:PORT] or ssh:[USER@]HOST[:PORT] a line (ibfwmgr --hosts)");
  web->add_option("--thresholds", args->thresholds_file, "with --fabric: health threshold file, 'NAME VALUE' per line (ibmon -T)");
  web->add_option("--threshold", args->thresholds, "with --fabric: NAME=VALUE over the file's (repeatable; ibmon --threshold)")
      ->allow_extra_args(false);
  web->add_option("--images", args->images, "with --fabric: folder of firmware images (picked by PSID, as ibfwmgr update "
                                            "--images) that the Fabric page may burn into the nodes chosen there");
  for (const char* name : {"--ca", "--ca-port", "--names", "--topology", "--thresholds", "--threshold", "--images"})
    web->get_option(name)->needs(fabric);  // the fabric's options without --fabric: a usage error
  web->add_option("DEVICE", args->devices, "devices to show (any device name the tools take); none: the PCI functions "
                                           "`mst status` lists");
  web->callback([&run, &common, args] { run = [&common, args] { return run_web(*args, common); }; });
}

}  // namespace openflint::mst
