// ibadm: runs this host's IBADM services (bus server, in-band server, name server) from /etc/ibadm.conf, and asks the name server (docs/ibadm.md).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/ParseCommandLine.h"
#include "cli/SignalStopper.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "fabric/HostsFile.h"
#include "fabric/IbadmConfig.h"
#include "fabric/NameServer.h"
#include "fabric/ibadm/Services.h"
#include "mtcr/remote/NameClient.h"

namespace {

using namespace openflint;
using nlohmann::json;

struct Args {
  std::string config;
  bool json = false;
  std::vector<std::string> bus_servers;  // name-server --bus-server HOST:PORT (ibadm start passes its own)
  std::string key;                       // names [NAME|GUID|LID]
  bool refresh = false;
};

int fail(const Args& a, const Error& e) { return cli::report_error(e, a.json); }

Result<IbadmConfig> load_config(const Args& a) { return read_ibadm_config(ibadm_config_path(a.config)); }

// The services' reports: one line each (stdout), or one JSON document.
int print_reports(const Args& a, const std::string& command, const IbadmConfig& config,
                  const std::vector<ibadm::ServiceReport>& reports) {
  bool ok = true;
  json services = json::array();
  for (const auto& r : reports) {
    ok = ok && r.ok;
    services.push_back(r.json);
  }
  if (a.json) {
    cli::print_json({{"ok", ok}, {"command", command}, {"config", config.source}, {"run_dir", config.run_dir}, {"services", services}});
  } else {
    for (const auto& r : reports) (r.ok ? std::cout : std::cerr) << (r.ok ? "-I- " : "-E- ") << r.line << '\n';
    if (reports.empty()) std::cout << "-I- no service is enabled in " << config.source << '\n';
  }
  return ok ? cli::kOk : cli::kFailed;
}

int run_service_command(const Args& a, const std::string& command) {
  auto config = load_config(a);
  if (!config) return fail(a, config.error());
  if (command == "status") return print_reports(a, command, *config, ibadm::service_statuses(*config));
  if (command == "stop") return print_reports(a, command, *config, ibadm::stop_services(*config));
  const std::string path = ibadm_config_path(a.config);
  if (command == "start") return print_reports(a, command, *config, ibadm::start_services(*config, path));
  auto reports = ibadm::stop_services(*config);  // restart
  for (auto& r : ibadm::start_services(*config, path)) reports.push_back(std::move(r));
  return print_reports(a, command, *config, reports);
}

// The name server in the foreground (what `ibadm start` runs detached).
int run_name_server(const Args& a) {
  auto config = load_config(a);
  if (!config) return fail(a, config.error());
  NameSources sources{.sweep = config->sweep, .ca = config->ca, .port = config->port, .hosts = {},
                      .naming = {.names = config->names, .topology = config->topology}};
  std::error_code ec;
  if (config->hosts_given || std::filesystem::exists(config->hosts, ec)) {
    auto hosts = read_hosts_file(config->hosts);
    if (!hosts) return fail(a, hosts.error());
    sources.hosts = std::move(*hosts);
  }
  for (const auto& text : a.bus_servers) {
    auto host = parse_remote_host(text);
    if (!host) return fail(a, host.error().with_context("--bus-server"));
    if (std::find(sources.hosts.begin(), sources.hosts.end(), *host) == sources.hosts.end()) sources.hosts.push_back(*host);
  }
  if (auto naming = SystemNaming::load(sources.naming); !naming) return fail(a, naming.error());
  NameServerOptions options;
  options.listen_address = config->name_server_listen;
  options.port = config->name_server_port;
  options.refresh_interval = std::chrono::seconds(config->name_server_refresh_s);
  options.collect = [sources] { return collect_names(sources); };
  options.log = [](const std::string& line) { std::cerr << "-I- name server: " << line << std::endl; };
  auto server = NameServer::listen(std::move(options));  // the first collection, then the port
  if (!server) return fail(a, server.error());
  const std::string& listen = config->name_server_listen;
  const bool v6 = listen.find(':') != std::string::npos;
  std::cerr << "-I- name server: serving " << (*server)->entries() << " name(s) on " << (v6 ? "[" + listen + "]" : listen)
            << ":" << (*server)->port() << std::endl;
  Result<void> served;
  {
    cli::SignalStopper stopper([&server] { (*server)->stop(); });
    served = (*server)->serve();
  }
  if (!served) return fail(a, served.error());
  return cli::kOk;
}

json entry_json(const NameEntry& e) {
  return {{"name", e.name}, {"guid", guid_text(e.guid)}, {"lid", e.lid}, {"device", e.device},
          {"host_device", e.remote.empty() ? json(nullptr) : json(e.remote)}};
}

// names [KEY]: one entry (a name, 0x GUID or LID) or every entry, from the configured name server.
int run_names(const Args& a) {
  if (!a.config.empty()) ::setenv("OPENFLINT_IBADM_CONF", a.config.c_str(), 1);
  auto location = find_name_server();
  if (!location) return fail(a, location.error());
  if (!*location)
    return fail(a, Error(ErrorCode::NotSupported, "no name server is configured (OPENFLINT_NAME_SERVER, or name_server_address "
                                                  "in " + ibadm_config_path(a.config) + ")"));
  auto client = NameClient::connect((*location)->server);
  if (!client) return fail(a, client.error());
  if (a.refresh) {
    if (auto refreshed = client->refresh(); !refreshed) return fail(a, refreshed.error());
  }
  std::vector<NameEntry> entries;
  if (a.key.empty()) {
    auto all = client->list();
    if (!all) return fail(a, all.error());
    entries = std::move(*all);
  } else {
    const bool is_guid = a.key.starts_with("0x");
    const bool is_lid = !a.key.empty() && a.key.find_first_not_of("0123456789") == std::string::npos;
    Result<NameEntry> one = is_guid  ? client->query_guid(std::strtoull(a.key.c_str(), nullptr, 16))
                            : is_lid ? client->query_lid(static_cast<std::uint16_t>(std::strtoul(a.key.c_str(), nullptr, 10)))
                                     : client->lookup(a.key);
    if (!one) return fail(a, one.error());
    entries.push_back(std::move(*one));
  }
  if (a.json) {
    json list = json::array();
    for (const auto& e : entries) list.push_back(entry_json(e));
    cli::print_json({{"ok", true}, {"name_server", to_string((*location)->server)}, {"entries", list}});
  } else {
    for (const auto& e : entries)
      std::cout << e.name << "  " << guid_text(e.guid) << "  lid " << e.lid << "  " << e.device << '\n';
  }
  return cli::kOk;
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibadm: this host's IBADM services (bus server, in-band server, name server) from /etc/ibadm.conf (docs/ibadm.md)"};
  Args a;
  app.require_subcommand(1);
  app.set_version_flag("--version", cli::version_line("ibadm"), "print the version and exit");
  const std::string config_help = "the configuration (default $OPENFLINT_IBADM_CONF, else /etc/ibadm.conf)";
  std::string command;
  for (const auto& [name, help] : std::vector<std::pair<std::string, std::string>>{
           {"start", "start the enabled services that do not run, and wait until each answers"},
           {"stop", "stop the services (SIGTERM, SIGKILL after 10 s); remove their pid files"},
           {"status", "each service: state, pid, address, devices, clients (exit 1 when an enabled one does not run)"},
           {"restart", "stop, then start"}}) {
    auto* sub = app.add_subcommand(name, help);
    sub->add_option("--config", a.config, config_help);
    sub->add_flag("--json", a.json, "JSON output");
    sub->callback([&command, n = name] { command = n; });
  }
  auto* name_server = app.add_subcommand("name-server", "run the name server in the foreground (ibadm start runs it detached)");
  name_server->add_option("--config", a.config, config_help);
  name_server->add_option("--bus-server", a.bus_servers, "a bus server (HOST:PORT) to ask besides the hosts file's (repeatable)")
      ->allow_extra_args(false);
  name_server->callback([&command] { command = "name-server"; });
  auto* names = app.add_subcommand("names", "ask the configured name server: every entry, or the one NAME, 0xGUID or LID names");
  names->add_option("KEY", a.key, "a system name, 0x + a node GUID, or a LID");
  names->add_option("--config", a.config, config_help);
  names->add_flag("--refresh", a.refresh, "have the name server sweep again first");
  names->add_flag("--json", a.json, "JSON output");
  names->callback([&command] { command = "names"; });
  if (auto done = cli::parse_command_line(app, argc, argv)) return *done;
  if (command == "name-server") return run_name_server(a);
  if (command == "names") return run_names(a);
  return run_service_command(a, command);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibadm", [&] { return tool_main(argc, argv); });
}
