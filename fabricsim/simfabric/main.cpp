// simfabric: brings up an ibsim fabric of simulated devices (hcasim) with responders, or runs a client on it.
#include <strings.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "devices/DeviceCatalog.h"
#include "fabricsim/SimFabric.h"
#include "fabricsim/TopologyFabric.h"
#include "sim/SimDevice.h"
#include "sim/SimNodeGuid.h"

namespace {

namespace fs = std::filesystem;
using namespace openflint;

std::atomic<bool> g_stop{false};
std::atomic<bool> g_stats{false};
std::atomic<bool> g_boot{false};
void on_signal(int) { g_stop.store(true); }
void on_stats_signal(int) { g_stats.store(true); }
void on_boot_signal(int) { g_boot.store(true); }

struct DeviceSpec {
  std::string node;   // ibsim node name
  std::string model;  // hcasim model
  std::string image;  // optional pre-burned image
};

void usage(std::FILE* out = stderr) {
  std::fprintf(out,
               "Usage: simfabric up --dir D [--switch MODEL[:IMG]] [--hca MODEL[:IMG]]... [--local MODEL[:IMG]]\n"
               "   or: simfabric up --dir D --topology FILE [--attach NODE]\n"
               "   or: simfabric up --dir D --topology FILE --firmware [--image MODEL=IMG]... [--attach NODE]\n"
               "   or: simfabric run --dir D -- CMD [ARGS...]\n"
               "   or: simfabric console --dir D -- IBSIM-COMMAND...\n"
               "   or: simfabric --help | --version\n\n"
               "  up:  creates each device in D/devices/NODE (like 'hcasim create --model MODEL --image IMG';\n"
               "       an existing device there is reused), writes the topology (Switch1; Hca1 is the local\n"
               "       node clients use; the --hca devices are Hca2, Hca3, ...), starts ibsim, runs opensm once\n"
               "       and one ibsim-responder per device, prints the LIDs and stays until SIGINT/SIGTERM;\n"
               "       then the responders save the devices and everything stops\n"
               "       --local: a device for Hca1 too, without a responder (no vendor MADs reach it, like the\n"
               "       adapter a host attaches through); Hca1 gets the node GUID its flash holds, so a bus\n"
               "       server of D/devices/Hca1 (mst server sim:D/devices/Hca1) reaches it out-of-band\n"
               "  up --topology: the ibsim topology FILE as it is (e.g. from 'ibtopogen --ibsim FILE'), no\n"
               "       responders; clients and opensm attach through NODE (default: the file's first Hca)\n"
               "       more --switch: Switch2, Switch3, ... on Switch1's ports 36, 35, ... (ibsim serves at most 10\n"
               "       attached processes: 9 devices with responders besides the client)\n"
               "  up --topology --firmware: every node gets a simulated device of the model its NodeInfo device\n"
               "       id names (ibtopogen --switch-type/--host-type), all served by this one process, which\n"
               "       speaks ibsim's socket protocol itself (no ibsim, no opensm: LIDs are assigned up front,\n"
               "       listed in D/nodes.txt); flash images: --image MODEL=IMG (MODEL: a simulator model or a\n"
               "       catalog part number), else the build's firmware-samples/MODEL-old.bin, else erased; each\n"
               "       device's flash is copy-on-write over D/base/MODEL.flash and has the node's GUIDs; devices\n"
               "       are not saved at exit; D/stats.json (written at start, on SIGUSR1 and at exit): MADs\n"
               "       served, CPU time and memory of this process; D/boot.txt (on SIGUSR2): per node, the\n"
               "       version and base GUID its flash would boot at a power-on now, or 'recovery' (changes nothing)\n"
               "  run: runs CMD as a client on the local node (Hca1, or --attach NODE) of the fabric 'up' in D (LD_PRELOAD, IBSIM_SOCKNAME, SIM_HOST)\n"
               "  console: one ibsim console command on the fabric 'up' in D, e.g.\n"
               "       PerformanceSet \"leaf-1\"[3] PortCounters.SymbolErrorCounter=7\n");
}

fs::path bin_dir() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

bool parse_spec(const std::string& text, const std::string& node, DeviceSpec& out) {
  const auto colon = text.find(':');
  out.node = node;
  out.model = text.substr(0, colon);
  out.image = colon == std::string::npos ? "" : text.substr(colon + 1);
  return !out.model.empty();
}

Result<void> create_device(const DeviceSpec& spec, const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / "state.json", ec)) return {};  // reuse what an earlier run left
  std::vector<std::string> argv{(bin_dir() / "hcasim").string(), "create", "--model", spec.model, dir.string()};
  if (!spec.image.empty()) {
    argv.push_back("--image");
    argv.push_back(fs::absolute(spec.image).string());
  }
  OF_ASSIGN(auto run, ChildProcess::run(SpawnSpec{argv, {}, {}, {}, {}}, 120000));
  if (run.exit_code != 0)
    return make_error(ErrorCode::Io, "creating " + spec.node + " (" + spec.model + "): " + run.out + run.err);
  return {};
}

std::string env_line(const std::map<std::string, std::string>& env) {
  std::string line;
  for (const auto& [k, v] : env) {
    if (k == "OSM_CACHE_DIR") continue;
    line += k + "=" + v + " ";
  }
  return line;
}

struct TopologyOption {
  std::string text;    // the ibsim topology given with --topology ("" = built from the devices)
  std::string attach;  // --attach
};

// The first "Hca N \"NAME\"" node of an ibsim topology.
std::string first_hca(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto q = line.find('"');
    if (line.starts_with("Hca") && q != std::string::npos) return line.substr(q + 1, line.find('"', q + 1) - q - 1);
  }
  return "";
}

// The node GUID the device's firmware reports: the one its flash holds.
Result<std::uint64_t> flash_node_guid(const fs::path& dir) {
  OF_ASSIGN(auto device, sim::SimDevice::load_state(dir));
  const auto guid = sim::reported_node_guid(*device);
  if (!guid) return make_error(ErrorCode::InvalidArgument, dir.string() + ": its flash holds no node GUID");
  return *guid;
}

int up(const fs::path& dir, const std::vector<DeviceSpec>& all, const TopologyOption& given) {
  SimFabric::Options options;
  options.dir = dir;
  options.topology = given.text;
  options.local_node = given.text.empty() ? "" : (given.attach.empty() ? first_hca(given.text) : given.attach);
  if (!given.text.empty() && options.local_node.empty())
    return std::fprintf(stderr, "-E- the topology has no Hca node for clients (--attach NODE)\n"), 1;
  options.hcas = 1;
  options.hca_device_ids = {0x1013};  // Hca1: the local adapter clients attach through
  std::vector<DeviceSpec> devices;  // those with a responder
  for (const auto& d : all) {
    if (d.node != SimFabric::hca(1)) {
      devices.push_back(d);
      continue;
    }
    auto info = find_device_by_sim_model(d.model);
    if (!info) return std::fprintf(stderr, "-E- %s\n", info.error().message().c_str()), 1;
    options.hca_device_ids[0] = (*info)->pci_device_id;
    if (auto made = create_device(d, dir / "devices" / d.node); !made)
      return std::fprintf(stderr, "-E- %s\n", made.error().message().c_str()), 1;
    auto guid = flash_node_guid(dir / "devices" / d.node);
    if (!guid) return std::fprintf(stderr, "-E- %s\n", guid.error().message().c_str()), 1;
    options.node_guids[d.node] = *guid;
  }
  for (const auto& d : devices) {
    auto info = find_device_by_sim_model(d.model);
    if (!info) return std::fprintf(stderr, "-E- %s\n", info.error().message().c_str()), 1;
    if (d.node == SimFabric::kSwitch) {
      options.switch_device_id = (*info)->pci_device_id;
    } else if (d.node.starts_with("Switch")) {
      options.extra_switch_device_ids.push_back((*info)->pci_device_id);
    } else {
      ++options.hcas;
      options.hca_device_ids.push_back((*info)->pci_device_id);
    }
    if (auto made = create_device(d, dir / "devices" / d.node); !made)
      return std::fprintf(stderr, "-E- %s\n", made.error().message().c_str()), 1;
  }
  auto fabric = SimFabric::start(options);
  if (!fabric) return std::fprintf(stderr, "-E- %s\n", fabric.error().message().c_str()), 1;
  std::ostringstream lids;
  for (const auto& d : devices) {
    auto pid = (*fabric)->start_responder(
        d.node, {(bin_dir() / "ibsim-responder").string(), "--sim", (dir / "devices" / d.node).string()});
    if (!pid) return std::fprintf(stderr, "-E- %s\n", pid.error().message().c_str()), 1;
    auto lid = (*fabric)->lid_of(d.node);  // a switch: its port 0 LID
    lids << "  " << d.node << "  " << d.model << "  lid-" << (lid ? std::to_string(*lid) : "?") << '\n';
  }
  const auto env = (*fabric)->client_env((*fabric)->local_node());
  {
    std::ofstream out(dir / "fabric.env");
    for (const auto& [k, v] : env) out << k << "=" << v << '\n';
  }
  std::cout << "-I- fabric up in " << dir.string() << " (ibsim socket " << (*fabric)->socket_name() << ")\n"
            << lids.str() << "-I- run clients with: simfabric run --dir " << dir.string()
            << " -- flint -d lid-N q\n    or: " << env_line(env) << "CMD\n-I- Ctrl-C (or SIGTERM) stops it\n"
            << std::flush;
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto down = (*fabric)->shutdown();
  fs::remove(dir / "fabric.env");
  if (!down) return std::fprintf(stderr, "-E- %s\n", down.error().message().c_str()), 1;
  std::cout << "-I- fabric stopped; devices saved in " << (dir / "devices").string() << '\n';
  return 0;
}

// The model an --image names: a simulator model or a catalog part number.
std::string image_model(const std::string& type) {
  if (auto info = find_device_by_sim_model(type)) return std::string((*info)->sim_model);
  for (const DeviceInfo& d : all_devices()) {
    if (!d.sim_model.empty() && ::strcasecmp(std::string(d.part_number).c_str(), type.c_str()) == 0)
      return std::string(d.sim_model);
  }
  return "";
}

int up_firmware(const fs::path& dir, const TopologyOption& given, const std::vector<std::string>& images) {
  TopologyFabric::Options options;
  options.topology = given.text;
  options.attach = given.attach;
  options.dir = fs::absolute(dir);
  options.devices.sample_dir = bin_dir().parent_path() / "firmware-samples";
  for (const auto& spec : images) {
    const auto eq = spec.find('=');
    const std::string model = eq == std::string::npos ? "" : image_model(spec.substr(0, eq));
    if (model.empty())
      return std::fprintf(stderr, "-E- --image %s: expected MODEL=IMG with a simulated model or part number\n",
                          spec.c_str()), 2;
    options.devices.images[model] = fs::absolute(spec.substr(eq + 1));
  }
  auto fabric = TopologyFabric::start(options);
  if (!fabric) return std::fprintf(stderr, "-E- %s\n", fabric.error().message().c_str()), 1;
  for (const auto& w : (*fabric)->devices().warnings()) std::fprintf(stderr, "-W- %s\n", w.c_str());
  {
    std::ofstream out(options.dir / "nodes.txt");
    out << (*fabric)->node_table();
  }
  const auto env = (*fabric)->client_env();
  {
    std::ofstream out(options.dir / "fabric.env");
    for (const auto& [k, v] : env) out << k << "=" << v << '\n';
  }
  std::string models;
  for (const auto& [model, count] : (*fabric)->devices().models()) models += " " + model + "×" + std::to_string(count);
  (void)(*fabric)->write_stats();
  std::cout << "-I- fabric up in " << options.dir.string() << " (socket " << (*fabric)->socket_name() << "): "
            << (*fabric)->topology().nodes().size() << " nodes, " << (*fabric)->devices().count() << " devices:"
            << models << "\n-I- nodes and LIDs: " << (options.dir / "nodes.txt").string()
            << "\n-I- run clients with: simfabric run --dir " << options.dir.string() << " -- flint -d lid-N q\n"
            << "-I- Ctrl-C (or SIGTERM) stops it\n" << std::flush;
  while (!g_stop.load()) {
    auto served = (*fabric)->serve_for(100, g_stop);
    if (!served) return std::fprintf(stderr, "-E- %s\n", served.error().message().c_str()), 1;
    if (g_stats.exchange(false)) (void)(*fabric)->write_stats();
    if (g_boot.exchange(false)) (void)(*fabric)->write_boot_report();
  }
  (void)(*fabric)->write_stats();
  fs::remove(options.dir / "fabric.env");
  std::cout << "-I- fabric stopped\n";
  return 0;
}

int run(const fs::path& dir, std::vector<char*> argv) {
  std::ifstream in(dir / "fabric.env");
  if (!in) return std::fprintf(stderr, "-E- no fabric is up in %s (run 'simfabric up --dir %s' first)\n",
                               dir.c_str(), dir.c_str()), 1;
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) ::setenv(line.substr(0, eq).c_str(), line.substr(eq + 1).c_str(), 1);
  }
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::perror(argv[0]);
  return 127;
}

}  // namespace

namespace {

int tool_main(int argc, char** argv) {
  if (auto done = openflint::cli::answer_help_or_version(argc, argv, "simfabric", usage)) return *done;
  if (argc < 4 || std::string(argv[2]) != "--dir") {
    usage();
    return 2;
  }
  const std::string command = argv[1];
  const fs::path dir = argv[3];
  if (command == "run") {
    if (argc < 6 || std::string(argv[4]) != "--") {
      usage();
      return 2;
    }
    return run(dir, std::vector<char*>(argv + 5, argv + argc));
  }
  if (command == "console") {
    if (argc < 6 || std::string(argv[4]) != "--") {
      usage();
      return 2;
    }
    std::string line;
    for (int i = 5; i < argc; ++i) {
      if (!line.empty()) line += ' ';
      line += argv[i];  // appended, not `" " + std::string(...)`: GCC 12 warns falsely (-Wrestrict) on that at -O3
    }
    auto out = SimFabric::console_in(dir, line);
    if (!out) return std::fprintf(stderr, "-E- %s\n", out.error().message().c_str()), 1;
    std::cout << *out;
    return 0;
  }
  if (command != "up") {
    usage();
    return 2;
  }
  std::vector<DeviceSpec> devices;
  TopologyOption topology;
  std::size_t next_hca = 2;
  std::size_t next_switch = 1;
  bool firmware = false;
  std::vector<std::string> images;
  int args = 0;  // the flag/value pairs (--firmware has no value)
  for (int i = 4; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--firmware") {
      firmware = true;
      --i;
      continue;
    }
    ++args;
    if (i + 1 >= argc) break;
    if (flag == "--image") {
      images.push_back(argv[i + 1]);
      continue;
    }
    if (flag == "--attach") {
      topology.attach = argv[i + 1];
      continue;
    }
    if (flag == "--topology") {
      std::ifstream in(argv[i + 1]);
      std::stringstream text;
      text << in.rdbuf();
      if (!in || text.str().empty())
        return std::fprintf(stderr, "-E- cannot read the topology %s\n", argv[i + 1]), 1;
      topology.text = text.str();
      continue;
    }
    DeviceSpec spec;
    const std::string node = flag == "--switch" ? (next_switch == 1 ? std::string(SimFabric::kSwitch) : SimFabric::extra_switch(next_switch))
                             : flag == "--local" ? SimFabric::hca(1)
                                                 : SimFabric::hca(next_hca);
    if ((flag != "--switch" && flag != "--hca" && flag != "--local") || !parse_spec(argv[i + 1], node, spec)) {
      usage();
      return 2;
    }
    if (flag == "--hca") ++next_hca;
    if (flag == "--switch") ++next_switch;
    devices.push_back(spec);
  }
  if (4 + 2 * args + (firmware ? 1 : 0) != argc || (!topology.text.empty() && !devices.empty()) ||
      (topology.text.empty() && !topology.attach.empty()) || (firmware && topology.text.empty()) ||
      (!firmware && !images.empty())) {
    usage();
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  struct sigaction stats_sa {};
  stats_sa.sa_handler = on_stats_signal;
  sigemptyset(&stats_sa.sa_mask);
  sigaction(SIGUSR1, &stats_sa, nullptr);
  struct sigaction boot_sa {};
  boot_sa.sa_handler = on_boot_signal;
  sigemptyset(&boot_sa.sa_mask);
  sigaction(SIGUSR2, &boot_sa, nullptr);
  if (firmware) return up_firmware(dir, topology, images);
  return up(dir, devices, topology);
}

}  // namespace

// An exception nothing turned into an error is one "-E-" line and exit 70, not an abort.
int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("simfabric", [&] { return tool_main(argc, argv); });
}
