// SimFabric: process orchestration for an ibsim fabric in a private temp dir.
#include "fabricsim/SimFabric.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace openflint {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string hex4(std::uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

std::string unique_name() {
  static std::atomic<unsigned> counter{0};
  return "ofsim" + std::to_string(::getpid()) + "x" + std::to_string(counter++) + "x" +
         std::to_string(Clock::now().time_since_epoch().count() % 1000000);
}

}  // namespace

Result<std::unique_ptr<SimFabric>> SimFabric::start(const Options& options) {
  if (options.topology.empty() && (options.hcas == 0 || options.hcas > 30))
    return make_error(ErrorCode::InvalidArgument, "sim fabric: between 1 and 30 hcas");
  std::unique_ptr<SimFabric> fabric(new SimFabric(options));
  if (options.topology.empty() && options.extra_switch_device_ids.size() > kSwitchPorts - 1 - options.hcas)
    return make_error(ErrorCode::InvalidArgument, "sim fabric: HCAs and extra switches need more than " +
                                                      std::to_string(kSwitchPorts) + " switch ports");
  if (!options.hca_device_ids.empty() && options.hca_device_ids.size() != options.hcas)
    return make_error(ErrorCode::InvalidArgument, "sim fabric: hca_device_ids must name one id per hca");
  if (options.dir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "openflint-fabric-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) return make_error(ErrorCode::Io, "sim fabric: cannot create temp dir");
    fabric->dir_ = tmpl;
  } else {
    std::error_code ec;
    fs::create_directories(options.dir, ec);
    if (ec) return make_error(ErrorCode::Io, "sim fabric: cannot create " + options.dir.string() + ": " + ec.message());
    fabric->dir_ = fs::absolute(options.dir);
    fabric->own_dir_ = false;
  }
  fabric->socket_ = unique_name();
  OF_TRY_CTX(fabric->boot(), "sim fabric in " + fabric->dir_.string());
  return fabric;
}

std::string SimFabric::topology() const {
  const std::size_t extra = options_.extra_switch_device_ids.size();
  const auto uplink = [](std::size_t k) { return kSwitchPorts + 2 - k; };  // Switch1's port to SwitchK
  std::ostringstream t;
  // ibnetdiscover's "caguid=0x..." / "switchguid=0x..." before a node header sets its GUID.
  const auto guid_line = [this](const std::string& node, const char* key) {
    const auto it = options_.node_guids.find(node);
    if (it == options_.node_guids.end()) return std::string();
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s=0x%016llx\n", key, static_cast<unsigned long long>(it->second));
    return std::string(buf);
  };
  t << "vendid=" << hex4(options_.vendor_id) << "\ndevid=" << hex4(options_.switch_device_id) << "\n";
  t << guid_line(kSwitch, "switchguid");
  t << "Switch " << (extra == 0 ? options_.hcas + 1 : kSwitchPorts) << " \"" << kSwitch << "\"\n";
  for (std::size_t i = 1; i <= options_.hcas; ++i) t << "[" << i << "] \"" << hca(i) << "\"[1]\n";
  for (std::size_t k = 2; k < extra + 2; ++k) t << "[" << uplink(k) << "] \"" << extra_switch(k) << "\"[1]\n";
  for (std::size_t i = 1; i <= options_.hcas; ++i) {
    const std::uint16_t devid = options_.hca_device_ids.empty() ? options_.hca_device_id : options_.hca_device_ids[i - 1];
    t << "\nvendid=" << hex4(options_.vendor_id) << "\ndevid=" << hex4(devid) << "\n";
    t << guid_line(hca(i), "caguid");
    t << "Hca 1 \"" << hca(i) << "\"\n[1] \"" << kSwitch << "\"[" << i << "]\n";
  }
  for (std::size_t k = 2; k < extra + 2; ++k) {
    t << "\nvendid=" << hex4(options_.vendor_id) << "\ndevid=" << hex4(options_.extra_switch_device_ids[k - 2]) << "\n";
    t << guid_line(extra_switch(k), "switchguid");
    t << "Switch 2 \"" << extra_switch(k) << "\"\n[1] \"" << kSwitch << "\"[" << uplink(k) << "]\n";
  }
  return t.str();
}

std::string SimFabric::dr_path(const std::string& node) {
  if (node == kSwitch) return "0.1";
  if (node.starts_with("Switch")) return "0.1." + std::to_string(kSwitchPorts + 2 - std::stoul(node.substr(6)));
  return "0.1." + node.substr(3);  // "HcaI" sits on switch port I
}

bool SimFabric::socket_listening() const {
  return read_text("/proc/net/unix").find("@" + socket_ + ":ctl") != std::string::npos;
}

std::map<std::string, std::string> SimFabric::client_env(const std::string& node) const {
  return {{"LD_PRELOAD", options_.preload.string()}, {"SIM_HOST", node}, {"IBSIM_SOCKNAME", socket_},
          {"OSM_CACHE_DIR", dir_.string()}};
}

Result<void> SimFabric::boot() {
  if (!fs::exists(options_.preload))
    return make_error(ErrorCode::NotFound, "umad2sim preload " + options_.preload.string() + " is missing");
  {
    std::ofstream topo(dir_ / "topology");
    topo << (options_.topology.empty() ? topology() : options_.topology);
    if (!topo) return make_error(ErrorCode::Io, "cannot write the topology file");
  }
  // The console: a FIFO we keep open for reading and writing, so ibsim's stdin never ends and
  // console_in() can write commands from any process.
  const fs::path fifo = dir_ / "ibsim.console";
  std::error_code ec;
  fs::remove(fifo, ec);
  if (::mkfifo(fifo.c_str(), 0600) != 0) return make_error(ErrorCode::Io, "cannot create the ibsim console FIFO");
  console_fd_ = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
  if (console_fd_ < 0) return make_error(ErrorCode::Io, "cannot open the ibsim console FIFO");
  // Never -r: that would listen on UDP on every interface.
  SpawnSpec sim{{"ibsim", "-s", (dir_ / "topology").string()}, {{"IBSIM_SOCKNAME", socket_}}, dir_,
                dir_ / "ibsim.log", fifo};
  OF_ASSIGN(auto ibsim, ChildProcess::spawn(sim));
  pids_.push_back(ibsim.pid());
  ibsim_.emplace(std::move(ibsim));
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.start_timeout_ms);
  // Ready: the socket listens and the console printed its first prompt (console_in() waits for
  // the prompt after a command's output, so it must not see this one late).
  while (!socket_listening() || read_text(dir_ / "ibsim.log").find("sim> ") == std::string::npos) {
    if (!ibsim_->running())
      return make_error(ErrorCode::Io, "ibsim exited at start: " + read_text(dir_ / "ibsim.log"));
    if (Clock::now() > deadline) return make_error(ErrorCode::Timeout, "ibsim socket did not appear");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // One opensm pass assigns LIDs and programs the switch, then exits.
  OF_ASSIGN(auto sm, run(local_node(), {"opensm", "-o", "-f", (dir_ / "opensm.log").string()}, options_.start_timeout_ms));
  if (sm.exit_code != 0)
    return make_error(ErrorCode::Io, "opensm -o failed (exit " + std::to_string(sm.exit_code) + "): " + sm.err);
  return {};
}

Result<std::string> SimFabric::console_in(const fs::path& dir, const std::string& command, int timeout_ms) {
  if (command.empty() || command.find('\n') != std::string::npos || command.size() > 120)
    return make_error(ErrorCode::InvalidArgument, "ibsim console: one command of at most 120 characters");
  const fs::path log = dir / "ibsim.log";
  const std::size_t start = read_text(log).size();
  const int fd = ::open((dir / "ibsim.console").c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return make_error(ErrorCode::NotFound, "no ibsim console in " + dir.string() + " (is the fabric up?)");
  const std::string line = command + "\n";  // below PIPE_BUF: written at once
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  if (!written) return make_error(ErrorCode::Io, "ibsim console: write failed");
  // Done when ibsim printed its next prompt after the command's output.
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const std::string text = read_text(log);
    const std::size_t prompt = text.size() > start ? text.find("sim> ", start) : std::string::npos;
    if (prompt != std::string::npos) {
      std::string out = text.substr(start, prompt - start);
      if (out.find("# ") != std::string::npos)  // ibsim's error lines start with "# "
        return make_error(ErrorCode::InvalidArgument, "ibsim console: " + command + ": " + out);
      return out;
    }
    if (Clock::now() > deadline) return make_error(ErrorCode::Timeout, "ibsim console: no answer to " + command);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

Result<CapturedRun> SimFabric::run(const std::string& node, const std::vector<std::string>& argv,
                                   int timeout_ms) const {
  // The preload writes ./sys-<pid>: run in the fabric dir so nothing lands elsewhere. A client
  // killed by a signal (a crash, the timeout) cannot remove it: that one is removed here.
  OF_ASSIGN(auto r, ChildProcess::run(SpawnSpec{argv, client_env(node), dir_, {}, {}}, timeout_ms));
  if (r.term_signal != 0 && r.pid > 0) {
    std::error_code ec;
    fs::remove_all(dir_ / ("sys-" + std::to_string(r.pid)), ec);
  }
  return r;
}

Result<pid_t> SimFabric::start_responder(const std::string& node, const std::vector<std::string>& argv) {
  if (responders_.count(node) != 0) return make_error(ErrorCode::Busy, "a responder already serves " + node);
  const fs::path log = dir_ / ("responder-" + node + ".log");
  const std::size_t log_start = read_text(log).size();  // a restarted responder appends
  OF_ASSIGN(auto child, ChildProcess::spawn(SpawnSpec{argv, client_env(node), dir_, log, {}}));
  const pid_t pid = child.pid();
  pids_.push_back(pid);
  auto& entry = responders_.emplace(node, std::move(child)).first->second;
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.start_timeout_ms);
  while (read_text(log).find("ready\n", log_start) == std::string::npos) {
    if (!entry.running()) return make_error(ErrorCode::Io, "responder for " + node + " exited: " + read_text(log));
    if (Clock::now() > deadline) return make_error(ErrorCode::Timeout, "responder for " + node + " never got ready");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return pid;
}

Result<int> SimFabric::stop_responder(const std::string& node) {
  auto it = responders_.find(node);
  if (it == responders_.end()) return make_error(ErrorCode::NotFound, "no responder serves " + node);
  const int rc = it->second.stop(5000);
  responders_.erase(it);
  return rc;
}

std::string SimFabric::responder_output(const std::string& node) const {
  return read_text(dir_ / ("responder-" + node + ".log"));
}

Result<std::uint16_t> SimFabric::lid_of(const std::string& node) const {
  OF_ASSIGN(auto r, run(node, {"ibaddr"}, 10000));
  // "GID fe80::10:1 LID start 0x1 end 0x1"
  const std::size_t at = r.out.find("LID start ");
  if (r.exit_code != 0 || at == std::string::npos)
    return make_error(ErrorCode::NotFound, "ibaddr for " + node + " failed: " + r.out + r.err);
  return static_cast<std::uint16_t>(std::strtoul(r.out.c_str() + at + 10, nullptr, 0));
}

Result<void> SimFabric::shutdown() {
  if (shut_down_) return {};
  shut_down_ = true;
  std::string problems;
  for (auto& [node, child] : responders_) {
    if (child.stop(3000) != 0) problems += "responder for " + node + " did not exit cleanly; ";
  }
  responders_.clear();
  if (ibsim_) {
    (void)ibsim_->stop(3000);  // ibsim dies from SIGTERM itself: its status is a signal
    ibsim_.reset();
  }
  if (console_fd_ >= 0) {
    ::close(console_fd_);
    console_fd_ = -1;
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    if (entry.path().filename().string().starts_with("sys-"))
      problems += "left-over preload dir " + entry.path().filename().string() + "; ";
  }
  if (!problems.empty()) return make_error(ErrorCode::Internal, "sim fabric shutdown: " + problems);
  return {};
}

SimFabric::~SimFabric() {
  (void)shutdown();
  std::error_code ec;
  if (own_dir_ && !dir_.empty() && std::getenv("OPENFLINT_KEEP_FABRIC") == nullptr) fs::remove_all(dir_, ec);
}

}  // namespace openflint
