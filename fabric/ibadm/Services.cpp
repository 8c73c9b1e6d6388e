// Services: pid files, launching, readiness checks and status of ibadm's bus server, in-band server and name server.
#include "fabric/ibadm/Services.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "fabric/ServiceProcess.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "mtcr/remote/NameClient.h"

namespace openflint::ibadm {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::chrono::milliseconds kStopGrace{10000};
constexpr std::chrono::milliseconds kProbeTimeout{3000};

// A service of this host: its files under the run dir and the program that runs it.
struct Service {
  std::string name;        // "bus-server", "inband-server", "name-server"
  bool enabled = false;
  fs::path program;        // argv[0], an absolute path
  std::string subcommand;  // argv[1]
  std::chrono::milliseconds ready_timeout{30000};
  fs::path pid_file, log_file, address_file;
};

fs::path own_directory() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

Service make_service(const IbadmConfig& c, const std::string& name) {
  const fs::path run = c.run_dir;
  Service s{.name = name, .enabled = false, .program = {}, .subcommand = {}, .ready_timeout = std::chrono::milliseconds(30000),
            .pid_file = run / (name + ".pid"), .log_file = run / (name + ".log"), .address_file = run / (name + ".address")};
  if (name == "bus-server") {
    s.enabled = c.bus_server;
    s.program = own_directory() / "mst";  // installed side by side
    s.subcommand = "server";
  } else if (name == "inband-server") {
    s.enabled = c.inband_server;
    s.program = own_directory() / "mst";
    s.subcommand = "server";
    s.ready_timeout = std::chrono::milliseconds(120000);  // the sweep comes first
  } else {
    s.enabled = c.name_server;
    s.program = own_directory() / "ibadm";
    s.subcommand = "name-server";
    s.ready_timeout = std::chrono::milliseconds(120000);  // the first sweep and host scan come first
  }
  return s;
}

// In start order: the name server last, as it asks the bus server.
std::vector<Service> services(const IbadmConfig& c) {
  return {make_service(c, "bus-server"), make_service(c, "inband-server"), make_service(c, "name-server")};
}

std::string read_text(const fs::path& path, std::uintmax_t from = 0) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(from));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > (1u << 20) ? text.substr(text.size() - (1u << 20)) : text;
}

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n");
  if (end == std::string::npos) return {};
  const auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string loopback_if_wildcard(const std::string& address) {
  if (address == "0.0.0.0") return "127.0.0.1";
  if (address == "::") return "::1";
  return address;
}

// The argv of each service, from the config.
std::vector<std::string> bus_server_argv(const Service& s, const IbadmConfig& c) {
  std::vector<std::string> argv{s.program.string(), s.subcommand, "--listen", c.bus_server_listen, "--port",
                                std::to_string(c.bus_server_port), "--audit-log", (fs::path(c.run_dir) / "bus-server.audit").string()};
  for (const auto& cidr : c.bus_server_allow) argv.insert(argv.end(), {"--allow", cidr});
  if (c.bus_server_read_only) argv.push_back("--read-only");
  if (!c.sysfs.empty()) argv.insert(argv.end(), {"--sysfs", c.sysfs});
  argv.insert(argv.end(), c.bus_server_devices.begin(), c.bus_server_devices.end());
  return argv;
}

// `mst server --inband`: the fabric's nodes, swept from the config's local port.
std::vector<std::string> inband_server_argv(const Service& s, const IbadmConfig& c) {
  std::vector<std::string> argv{s.program.string(), s.subcommand, "--inband", "--listen", c.inband_server_listen, "--port",
                                std::to_string(c.inband_server_port), "--audit-log",
                                (fs::path(c.run_dir) / "inband-server.audit").string()};
  for (const auto& cidr : c.inband_server_allow) argv.insert(argv.end(), {"--allow", cidr});
  if (!c.ca.empty()) argv.insert(argv.end(), {"--ca", c.ca});
  if (c.port != 0) argv.insert(argv.end(), {"--ca-port", std::to_string(c.port)});
  return argv;
}

std::vector<std::string> name_server_argv(const Service& s, const std::string& config_path, const std::string& bus_address) {
  std::vector<std::string> argv{s.program.string(), s.subcommand, "--config", fs::absolute(config_path).string()};
  if (!bus_address.empty()) argv.insert(argv.end(), {"--bus-server", bus_address});
  return argv;
}

// "-I- serving N device(s) on ADDR:PORT" (mst server) / "-I- name server: serving N name(s) on ADDR:PORT".
std::string announced_address(const std::string& log) {
  static const std::regex line("-I- (?:name server: )?serving [0-9]+ (?:device|name)\\(s\\) on (\\S+):([0-9]+)");
  std::smatch m;
  if (!std::regex_search(log, m, line)) return {};
  std::string host = m[1].str();
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  host = loopback_if_wildcard(host);
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + m[2].str();
}

Result<RemoteHost> tcp_address(const std::string& text) {
  OF_ASSIGN(RemoteHost host, parse_remote_host(text));
  return host;
}

// Whether the service answers V as its protocol says.
Result<void> probe(const Service& s, const std::string& address) {
  OF_ASSIGN(const RemoteHost host, tcp_address(address));
  if (s.name == "name-server") {
    OF_ASSIGN(auto client, NameClient::connect(host, kProbeTimeout));
    return {};
  }
  OF_ASSIGN(auto connection, BusConnection::connect_tcp(host.host, host.port, kProbeTimeout));
  OF_TRY(connection.send("V"));
  OF_ASSIGN(const std::string reply, connection.receive_reply(kBusMaxReplyBytes, kProbeTimeout));
  OF_ASSIGN(const std::string version, parse_ok_reply(reply));
  if (version.empty()) return make_error(ErrorCode::Io, "V answered '" + reply + "'");
  return {};
}

void remove_files(const Service& s) {
  std::error_code ec;
  fs::remove(s.pid_file, ec);
  fs::remove(s.address_file, ec);
}

json base_json(const Service& s, const ServiceStatus& status) {
  json j{{"name", s.name}, {"enabled", s.enabled}, {"state", to_string(status.state)}, {"log", s.log_file.string()}};
  j["pid"] = status.pid > 0 && status.state == ServiceState::Running ? json(status.pid) : json(nullptr);
  if (!status.why.empty()) j["stale_reason"] = status.why;
  return j;
}

// Launches `s` and waits until it announces its address and answers there.
ServiceReport launch(const Service& s, const std::vector<std::string>& argv, std::string& address_out) {
  std::error_code ec;
  const auto log_start = fs::exists(s.log_file, ec) ? fs::file_size(s.log_file, ec) : 0;
  auto pid = launch_detached(argv, s.log_file);
  ServiceReport r;
  r.json = {{"name", s.name}, {"log", s.log_file.string()}};
  if (!pid) {
    r.ok = false;
    r.json["error"] = pid.error().message();
    r.line = s.name + ": " + pid.error().message();
    return r;
  }
  if (auto written = write_pid_file(s.pid_file, *pid); !written) {
    (void)stop_process(*pid, kStopGrace);
    r.ok = false;
    r.line = s.name + ": " + written.error().message();
    r.json["error"] = written.error().message();
    return r;
  }
  const auto until = std::chrono::steady_clock::now() + s.ready_timeout;
  std::string why = "it did not announce its address";
  while (std::chrono::steady_clock::now() < until) {
    if (!process_alive(*pid)) {
      why = "it exited: " + last_line(read_text(s.log_file, log_start));
      break;
    }
    const std::string address = announced_address(read_text(s.log_file, log_start));
    if (!address.empty()) {
      auto answered = probe(s, address);
      if (answered) {
        std::ofstream(s.address_file, std::ios::trunc) << address << '\n';
        address_out = address;
        r.json.update({{"state", "running"}, {"pid", *pid}, {"address", address}, {"action", "started"}});
        r.line = s.name + ": started, pid " + std::to_string(*pid) + ", on " + address;
        return r;
      }
      why = "it does not answer on " + address + ": " + answered.error().message();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  (void)stop_process(*pid, kStopGrace);
  remove_files(s);
  r.ok = false;
  r.json.update({{"state", "stopped"}, {"error", why}});
  r.line = s.name + ": did not start: " + why + " (log " + s.log_file.string() + ")";
  return r;
}

std::string recorded_address(const Service& s) { return last_line(read_text(s.address_file)); }

}  // namespace

std::vector<ServiceReport> start_services(const IbadmConfig& config, const std::string& config_path) {
  std::vector<ServiceReport> out;
  std::error_code ec;
  fs::create_directories(config.run_dir, ec);
  if (ec) {
    out.push_back(ServiceReport{.json = {{"name", "run_dir"}, {"error", ec.message()}},
                                .line = "cannot create the run dir " + config.run_dir + ": " + ec.message(), .ok = false});
    return out;
  }
  std::string bus_address;
  for (const Service& s : services(config)) {
    if (!s.enabled) continue;
    const ServiceStatus status = service_status(s.pid_file, s.program.string(), s.subcommand);
    if (status.state == ServiceState::Running) {
      const std::string address = recorded_address(s);
      if (s.name == "bus-server") bus_address = address;
      out.push_back(ServiceReport{.json = {{"name", s.name}, {"state", "running"}, {"pid", status.pid}, {"address", address},
                                           {"action", "already running"}},
                                  .line = s.name + ": already running, pid " + std::to_string(status.pid) + ", on " + address,
                                  .ok = true});
      continue;
    }
    std::string note;
    if (status.state == ServiceState::Stale) {
      remove_files(s);
      note = " (stale pid file removed: " + status.why + ")";
    }
    std::string address;
    const std::vector<std::string> argv = s.name == "bus-server"      ? bus_server_argv(s, config)
                                          : s.name == "inband-server" ? inband_server_argv(s, config)
                                                                      : name_server_argv(s, config_path, bus_address);
    ServiceReport r = launch(s, argv, address);
    if (s.name == "bus-server") bus_address = address;
    r.line += note;
    if (!note.empty()) r.json["stale_pid_file"] = status.why;
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ServiceReport> stop_services(const IbadmConfig& config) {
  std::vector<ServiceReport> out;
  auto list = services(config);
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    const Service& s = *it;
    const ServiceStatus status = service_status(s.pid_file, s.program.string(), s.subcommand);
    // A service the config does not enable is stopped too when a pid file names it (the config
    // changed while it ran), and otherwise not mentioned.
    if (!s.enabled && status.state == ServiceState::Stopped) continue;
    ServiceReport r{.json = {{"name", s.name}, {"state", "stopped"}}, .line = {}, .ok = true};
    if (status.state == ServiceState::Running) {
      auto stopped = stop_process(status.pid, kStopGrace);
      if (!stopped) {
        r.ok = false;
        r.json.update({{"state", "running"}, {"pid", status.pid}, {"error", stopped.error().message()}});
        r.line = s.name + ": " + stopped.error().message();
        out.push_back(std::move(r));
        continue;
      }
      r.json.update({{"action", "stopped"}, {"pid", status.pid}});
      r.line = s.name + ": stopped (pid " + std::to_string(status.pid) + ")";
    } else if (status.state == ServiceState::Stale) {
      r.json.update({{"action", "stale pid file removed"}, {"stale_reason", status.why}});
      r.line = s.name + ": not running; stale pid file removed (" + status.why + ")";
    } else {
      r.json["action"] = "not running";
      r.line = s.name + ": not running";
    }
    remove_files(s);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ServiceReport> service_statuses(const IbadmConfig& config) {
  std::vector<ServiceReport> out;
  for (const Service& s : services(config)) {
    const ServiceStatus status = service_status(s.pid_file, s.program.string(), s.subcommand);
    ServiceReport r{.json = base_json(s, status), .line = s.name + ": " + to_string(status.state), .ok = true};
    if (status.state != ServiceState::Running) {
      r.ok = !s.enabled;
      if (!s.enabled) r.line += " (not enabled)";
      if (!status.why.empty()) r.line += " (stale pid file: " + status.why + ")";
      out.push_back(std::move(r));
      continue;
    }
    const std::string address = recorded_address(s);
    r.json["address"] = address;
    r.line += ", pid " + std::to_string(status.pid) + ", on " + address;
    auto host = tcp_address(address);
    if (host) {
      if (s.subcommand == "server") {  // a bus server, of this host's devices or in-band
        auto devices = [&]() -> Result<std::vector<std::string>> {
          OF_ASSIGN(auto connection, BusConnection::connect_tcp(host->host, host->port, kProbeTimeout));
          OF_TRY(connection.send("L"));
          OF_ASSIGN(const std::string reply, connection.receive_reply(kBusMaxReplyBytes, kProbeTimeout));
          OF_ASSIGN(const std::uint32_t count, parse_read_reply(reply));
          std::vector<std::string> names;
          for (std::uint32_t i = 0; i < count && i < 4096; ++i) {
            OF_ASSIGN(std::string name, connection.receive_reply(kBusMaxReplyBytes, kProbeTimeout));
            names.push_back(std::move(name));
          }
          return names;
        }();
        r.json["devices"] = devices ? json(*devices) : json(nullptr);
        if (devices) {
          r.line += ", " + std::to_string(devices->size()) + " device(s)";
        } else {
          r.json["error"] = devices.error().message();
          r.line += ", devices: " + devices.error().message();
        }
      } else {
        auto entries = [&]() -> Result<std::vector<NameEntry>> {
          OF_ASSIGN(auto client, NameClient::connect(*host, kProbeTimeout));
          return client.list();
        }();
        r.json["entries"] = entries ? json(entries->size()) : json(nullptr);
        if (entries) {
          r.line += ", " + std::to_string(entries->size()) + " name(s)";
        } else {
          r.json["error"] = entries.error().message();
          r.line += ", names: " + entries.error().message();
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // our own probe's connection closes first
      const auto clients = established_peers(host->port);
      r.json["clients"] = clients;
      r.line += ", " + std::to_string(clients.size()) + " client(s)";
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace openflint::ibadm
