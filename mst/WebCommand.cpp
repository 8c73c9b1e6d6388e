// WebCommand: `mst web` — the web console (web/WebServer) on loopback by default, guarded by a
// random access token printed in its URL.
#include <signal.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/SignalStopper.h"
#include "mst/Commands.h"
#include "mst/ServerSetup.h"
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
};

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

int run_web(const WebArgs& a, const Common& common) {
  ::signal(SIGPIPE, SIG_IGN);
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
  auto audit = make_audit_log(a.audit_log);
  if (!audit) return fail(audit.error());
  options.devices = *devices;
  options.open_options.sysfs_root = root;
  options.open_options.lock_timeout = std::chrono::milliseconds(a.lock_timeout_ms);
  options.read_only = a.read_only;
  options.audit = *audit;
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
    std::cerr << "-I- serving " << devices->size() << " device(s)" << (a.read_only ? " (read-only)" : "") << " on "
              << (*server)->url() << std::endl;
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
  web->add_option("DEVICE", args->devices, "devices to show (any device name the tools take); none: the PCI functions "
                                           "`mst status` lists");
  web->callback([&run, &common, args] { run = [&common, args] { return run_web(*args, common); }; });
}

}  // namespace openflint::mst
