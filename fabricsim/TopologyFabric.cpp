// TopologyFabric: topology + devices + server, and the files a fabric directory holds.
#include "fabricsim/TopologyFabric.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/BootRom.h"

namespace openflint {

namespace fs = std::filesystem;

namespace {

std::string first_ca(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto q = line.find('"');
    if ((line.starts_with("Hca") || line.starts_with("Ca")) && q != std::string::npos)
      return line.substr(q + 1, line.find('"', q + 1) - q - 1);
  }
  return "";
}

std::uint64_t status_kib(const char* key, const char* file = "/proc/self/status") {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with(key)) return std::strtoull(line.c_str() + std::char_traits<char>::length(key), nullptr, 10);
  return 0;
}

}  // namespace

Result<std::unique_ptr<TopologyFabric>> TopologyFabric::start(const Options& options) {
  const auto began = std::chrono::steady_clock::now();
  std::unique_ptr<TopologyFabric> f(new TopologyFabric());
  f->options_ = options;
  f->attach_ = options.attach.empty() ? first_ca(options.topology) : options.attach;
  if (f->attach_.empty()) return make_error(ErrorCode::InvalidArgument, "the topology has no Hca node for clients (--attach NODE)");
  OF_ASSIGN(f->topology_, SimTopology::parse(options.topology, f->attach_));
  std::error_code ec;
  fs::create_directories(options.dir, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot create " + options.dir.string() + ": " + ec.message());
  TopologyDeviceOptions devices = options.devices;
  if (devices.base_dir.empty()) devices.base_dir = options.dir / "base";
  OF_ASSIGN(f->devices_, TopologyDevices::build(f->topology_, devices));
  f->socket_ = "offab" + std::to_string(::getpid()) + "x" +
               std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000);
  OF_ASSIGN(f->server_, FabricServer::start(f->topology_, f->devices_->handlers(), f->socket_,
                                            f->topology_.find(f->attach_)));
  f->start_time_ = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began);
  return f;
}

std::map<std::string, std::string> TopologyFabric::client_env() const {
  return {{"LD_PRELOAD", options_.preload.string()}, {"SIM_HOST", attach_}, {"IBSIM_SOCKNAME", socket_}};
}

std::string TopologyFabric::node_table() const {
  std::string out;
  char line[160];
  for (std::size_t i = 0; i < topology_.nodes().size(); ++i) {
    const auto& n = topology_.nodes()[i];
    auto* d = devices_->device(i);
    std::snprintf(line, sizeof line, "%s\t%s\tlid-%u\t0x%016llx\n", n.name.c_str(),
                  d != nullptr ? std::string(d->device().info().sim_model).c_str() : "-",
                  static_cast<unsigned>(n.lid(n.is_switch ? 0 : 1)), static_cast<unsigned long long>(n.guid));
    out += line;
  }
  return out;
}

namespace {

// Replaces DIR/NAME atomically (a reader never sees half a file).
Result<void> write_fabric_file(const fs::path& dir, const std::string& name, const std::string& text) {
  const fs::path tmp = dir / (name + ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out) return make_error(ErrorCode::Io, "cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, dir / name, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot write " + name + ": " + ec.message());
  return {};
}

}  // namespace

Result<void> TopologyFabric::write_boot_report() const {
  std::string out;
  for (std::size_t i = 0; i < topology_.nodes().size(); ++i) {
    auto* d = devices_->device(i);
    if (d == nullptr) continue;
    const auto& n = topology_.nodes()[i];
    // A power-on clears the boot-address register: the boot ROM scans the candidate starts.
    const sim::BootState boot = sim::run_boot_rom(d->device().info(), d->device().flash().contents(), std::nullopt);
    const bool runs = !boot.recovery && boot.running && boot.running->fw_version;
    char guid[24] = "-";
    if (runs && boot.running->base_guid)
      std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(boot.running->base_guid->base));
    out += n.name + "\tlid-" + std::to_string(n.lid(n.is_switch ? 0 : 1)) + "\t" +
           (runs ? boot.running->fw_version->to_string() : std::string("recovery")) + "\t" + guid + "\n";
  }
  return write_fabric_file(options_.dir, "boot.txt", out);
}

Result<void> TopologyFabric::write_stats() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  const auto us = [](const timeval& t) { return static_cast<long long>(t.tv_sec) * 1000000 + t.tv_usec; };
  const long long began_us = us(ru.ru_utime) + us(ru.ru_stime);
  const auto& s = server_->stats();
  char text[768];
  std::snprintf(text, sizeof text,
                "{\"nodes\": %zu, \"devices\": %zu, \"start_ms\": %lld, \"mads\": %llu, \"device_mads\": %llu, "
                "\"subnet_mads\": %llu, \"unsupported\": %llu, \"bounced\": %llu, \"lost\": %llu, \"clients\": %llu, "
                "\"cpu_user_us\": %lld, \"cpu_system_us\": %lld, \"rss_kib\": %llu, \"peak_rss_kib\": %llu, "
                "\"rss_anon_kib\": %llu, \"pss_kib\": %llu, \"stats_cpu_us\": %lld}\n",
                topology_.nodes().size(), devices_->count(), static_cast<long long>(start_time_.count()),
                static_cast<unsigned long long>(s.mads), static_cast<unsigned long long>(s.device_mads),
                static_cast<unsigned long long>(s.subnet_mads), static_cast<unsigned long long>(s.unsupported),
                static_cast<unsigned long long>(s.bounced), static_cast<unsigned long long>(s.lost),
                static_cast<unsigned long long>(s.clients), us(ru.ru_utime),
                us(ru.ru_stime), static_cast<unsigned long long>(status_kib("VmRSS:")),
                static_cast<unsigned long long>(status_kib("VmHWM:")),
                static_cast<unsigned long long>(status_kib("RssAnon:")),
                static_cast<unsigned long long>(status_kib("Pss:", "/proc/self/smaps_rollup")), stats_cpu_us_);
  ::getrusage(RUSAGE_SELF, &ru);
  stats_cpu_us_ += us(ru.ru_utime) + us(ru.ru_stime) - began_us;
  return write_fabric_file(options_.dir, "stats.json", text);
}

}  // namespace openflint
