// 'ibfwmgr update' of a 64-node simulated fabric end to end: an ibtopogen fat tree of Spectrum
// switches and ConnectX-4 hosts ('simfabric up --topology --firmware', small FS3 images so a burn
// is cheap). Killed (SIGKILL) at three points and run again, every node's flash boots a complete
// image after each kill (the fabric's boot report), the last run burns only the unfinished nodes
// (a node killed while its burned image was read back is not burned again), and every node ends
// with the new image on flash and its own GUID; --parallel 1 and --parallel 16 end in the same
// state; no process and no socket of the fabric outlive a test (on failure too).
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "core/ChildProcess.h"
#include "tests/inband/DeviceFabricFixture.h"  // small_fs3_image
#include "tests/fabric_scale_sim/TopologyFabricFiles.h"
#include "tests/support/TestSupport.h"
#include "tests/support/UpdateJournalRecords.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kUmad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
constexpr const char* kSwitchPsid = "MT_1780110032";  // Spectrum, hw id 0x249
constexpr const char* kHostPsid = "MT_2190110032";    // ConnectX-4, hw id 0x209
constexpr const char* kOldVersion = "12.10.1000";
constexpr const char* kNewHostVersion = "12.20.1000";
constexpr const char* kNewSwitchVersion = "12.30.1000";
// The images' code section: most of a burn's MADs are its fixed part (the image is 17 KiB; a
// node's burn about 4,300 MADs), so smaller code would save little.
constexpr std::size_t kCodeBytes = 4096;
// How long after a node's "started" record a kill lands in the middle of its burn (a burn takes
// seconds with 16 at a time).
constexpr int kMidBurnMs = 300;

// The processes (other than this one) whose command line names `text`: with the test's own
// temporary folder, every simfabric and ibfwmgr the test started and did not reap.
std::vector<pid_t> processes_naming(const std::string& text) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == ::getpid()) continue;
    if (read_text(e.path() / "cmdline").find(text) != std::string::npos) out.push_back(pid);
  }
  return out;
}

class FabricUpdateSim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kUmad2sim)) GTEST_SKIP() << "umad2sim (ibsim-utils) is not installed";
  }

  // Nothing the test started outlives it, whether it passed or not: the update it killed or
  // left, the fabric, the fabric's sockets.
  void TearDown() override {
    if (update_) update_->signal(SIGKILL);
    update_.reset();
    if (fabric_) (void)fabric_->stop(10000);
    fabric_.reset();
    const auto left = processes_naming(dir_.path().string());
    EXPECT_TRUE(left.empty()) << left.size() << " process(es) left, e.g. pid " << left.front();
    for (const pid_t pid : left) ::kill(pid, SIGKILL);
    if (!socket_.empty()) {
      EXPECT_EQ(read_text("/proc/net/unix").find("@" + socket_ + ":"), std::string::npos)
          << "the fabric's socket is left";
    }
  }

  // An ibtopogen fat tree of `spines` + `leaves` Spectrum switches and `hosts` ConnectX-4 per
  // leaf, every node on its old image (12.10) with its own GUIDs; images_ holds the new ones
  // (hosts 12.20, switches 12.30). `code_bytes`: the images' code section (what a burn writes).
  void bring_up(const fs::path& fabric_dir, int spines, int leaves, int hosts, std::size_t code_bytes) {
    fabric_dir_ = fabric_dir;
    const auto old_switch = dir_ / "switch-old.bin";
    const auto old_host = dir_ / "host-old.bin";
    write_file(old_switch, small_fs3_image(10, kSwitchPsid, 0x249, code_bytes));
    write_file(old_host, small_fs3_image(10, kHostPsid, 0x209, code_bytes));
    fs::create_directories(images_);
    write_file(images_ / "switch-new.bin", small_fs3_image(30, kSwitchPsid, 0x249, code_bytes));
    write_file(images_ / "host-new.bin", small_fs3_image(20, kHostPsid, 0x209, code_bytes));
    const auto ibsim = dir_ / "fat.ibsim";
    const auto gen = run_tool("ibtopogen", {"--spines", std::to_string(spines), "--leaves", std::to_string(leaves),
                                            "--hosts-per-leaf", std::to_string(hosts), "--switch-type", "spectrum",
                                            "--host-type", "connectx4", "-o", (dir_ / "fat.topo").string(), "--ibsim",
                                            ibsim.string()});
    ASSERT_EQ(gen.exit_code, 0) << gen.err;
    const auto log = dir_ / (fabric_dir.filename().string() + ".log");
    auto child = ChildProcess::spawn(background_tool({bin("simfabric").string(), "up", "--dir", fabric_dir.string(),
                                                     "--topology", ibsim.string(), "--firmware", "--image",
                                                     "spectrum=" + old_switch.string(), "--image",
                                                     "connectx4=" + old_host.string()},
                                                    {}, log, dir_ / (fabric_dir.filename().string() + ".err")));
    ASSERT_TRUE(child) << child.error().message();
    fabric_ = std::make_unique<ChildProcess>(std::move(*child));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (read_text(log).find("stops it") == std::string::npos) {
      ASSERT_TRUE(fabric_->running()) << "simfabric up ended: " << read_text(log);
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "simfabric up did not come up: " << read_text(log);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const std::string text = read_text(log);
    socket_ = fabric_socket(text);
    ASSERT_FALSE(socket_.empty()) << text;
    const int switches = spines + leaves, all = switches + leaves * hosts;
    const std::string devices = std::to_string(all) + " nodes, " + std::to_string(all) + " devices: connectx4×" +
                                std::to_string(leaves * hosts) + " spectrum×" + std::to_string(switches);
    ASSERT_NE(text.find(devices), std::string::npos) << text;
    nodes_ = topology_nodes(fabric_dir / "nodes.txt");
    ASSERT_EQ(nodes_.size(), static_cast<std::size_t>(all));
  }

  // The fabric and its socket gone once it is stopped (the test's TearDown checks it again).
  void stop_fabric() {
    const pid_t pid = fabric_->pid();
    EXPECT_EQ(fabric_->stop(10000), 0);
    fabric_.reset();
    EXPECT_NE(::kill(pid, 0), 0) << "the fabric process is still there";
    EXPECT_EQ(read_text("/proc/net/unix").find("@" + socket_ + ":"), std::string::npos) << "the fabric still listens";
  }

  std::vector<std::string> in_fabric(std::vector<std::string> argv) const {
    argv.insert(argv.begin(), {bin("simfabric").string(), "run", "--dir", fabric_dir_.string(), "--"});
    return argv;
  }
  CapturedRun client(std::vector<std::string> argv) {
    SpawnSpec spec;
    spec.argv = in_fabric(std::move(argv));
    auto r = ChildProcess::run(spec, 120000);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  }
  std::vector<std::string> update_argv(int parallel) const {
    return {bin("ibfwmgr").string(), "update", "--images", images_.string(), "-y", "--json", "--journal",
            journal_.string(), "--parallel", std::to_string(parallel)};
  }
  json update(int parallel) {
    const auto r = client(update_argv(parallel));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j.is_discarded() ? json::object() : j;
  }

  // Starts the update in the background and SIGKILLs it `delay` after its journal holds `count`
  // records of `state` (over the whole journal, earlier runs' included).
  void kill_update_when(const std::string& state, std::size_t count, std::chrono::milliseconds delay, int parallel) {
    auto child = ChildProcess::spawn(background_tool(in_fabric(update_argv(parallel)), {}, dir_ / "killed.out",
                                                     dir_ / "killed.err"));
    ASSERT_TRUE(child) << child.error().message();
    update_ = std::make_unique<ChildProcess>(std::move(*child));
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (journal_states(journal_, state) < count) {
      ASSERT_TRUE(update_->running()) << "ibfwmgr ended before its journal held " << count << " '" << state
                                      << "': " << read_text(dir_ / "killed.err");
      ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "no " << count << " '" << state << "' in the journal";
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::this_thread::sleep_for(delay);
    const pid_t pid = update_->pid();  // simfabric run execs the tool: this is ibfwmgr itself
    update_->signal(SIGKILL);
    EXPECT_TRUE(update_->wait_for(std::chrono::seconds(10)).has_value());
    update_.reset();
    EXPECT_NE(::kill(pid, 0), 0) << "ibfwmgr is still there";
    std::error_code ec;  // the preload's folder of a client killed by a signal
    fs::remove_all(fabric_dir_ / ("sys-" + std::to_string(pid)), ec);
  }

  static std::string new_version(const TopologyNode& n) {
    return n.model == "spectrum" ? kNewSwitchVersion : kNewHostVersion;
  }

  struct Boots {
    std::string version;  // "recovery": no bootable copy
    std::string guid;     // the booted image's base GUID
  };
  // What every node's flash would boot at a power-on now, by node name: simfabric's boot report
  // (SIGUSR2: its boot ROM's rule over each device's flash as it is; nothing on the devices
  // changes, so a flash lock a killed run held stays held for the next run to reclaim).
  std::map<std::string, Boots> boot_report() {
    const auto file = fabric_dir_ / "boot.txt";
    std::error_code ec;
    fs::remove(file, ec);
    EXPECT_EQ(::kill(fabric_->pid(), SIGUSR2), 0);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!fs::exists(file) && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::map<std::string, Boots> boots;
    std::istringstream in(read_text(file));
    for (std::string name, lid, version, guid; in >> name >> lid >> version >> guid;) boots[name] = {version, guid};
    return boots;
  }

  // After a kill: every node would boot a complete image, the old or the new one (a burn cut
  // short leaves the old one booting), and every node the journal calls burned the new one.
  void expect_every_node_bootable(const std::string& when) {
    const auto boots = boot_report();
    ASSERT_EQ(boots.size(), nodes_.size()) << when << ": no boot report";
    std::set<std::string> burned;
    for (const auto& [guid, state] : journal_records(journal_))
      if (state == "burned") burned.insert(guid);
    for (const auto& n : nodes_) {
      const std::string& boots_now = boots.at(n.name).version;
      EXPECT_TRUE(boots_now == kOldVersion || boots_now == new_version(n))
          << when << ": " << n.name << " boots " << boots_now;
      if (burned.count(n.guid) != 0) {
        EXPECT_EQ(boots_now, new_version(n)) << when << ": " << n.name << " burned, yet boots";
      }
    }
  }

  // The end state: node GUID -> "VERSION BASE-GUID" of the image its flash boots, every node's
  // from the boot report, and flint's view through the fabric (flint q over MADs, ~0.2 s a node,
  // a few at a time) of every `stride`-th node the same.
  std::map<std::string, std::string> end_state(std::size_t stride) {
    std::map<std::string, std::string> state;
    for (const auto& [name, boots] : boot_report())
      for (const auto& n : nodes_)
        if (n.name == name) state[n.guid] = boots.version + " " + boots.guid;
    constexpr std::size_t kAtOnce = 4;
    std::vector<std::pair<const TopologyNode*, ChildProcess>> running;
    const auto finish = [&](std::pair<const TopologyNode*, ChildProcess>& q) {
      const auto& n = *q.first;
      const auto status = q.second.wait_for(std::chrono::seconds(60));
      EXPECT_TRUE(status.has_value() && *status == 0) << n.name << ": " << q.second.out() << q.second.err();
      const auto j = json::parse(q.second.out(), nullptr, false);
      if (j.is_discarded() || !j.contains("fw_version") || !j.contains("base_guid")) {
        ADD_FAILURE() << n.name << ": " << q.second.out() << q.second.err();
        return;
      }
      EXPECT_EQ(j["fw_version"].get<std::string>() + " " + j["base_guid"]["base"].get<std::string>(), state[n.guid])
          << n.name << ": flint q and the boot report differ";
    };
    for (std::size_t i = 0; i < nodes_.size(); i += stride) {
      const auto& n = nodes_[i];
      if (running.size() == kAtOnce) {
        finish(running.front());
        running.erase(running.begin());
      }
      auto q = ChildProcess::spawn(background_tool(in_fabric({bin("flint").string(), "-d", n.lid, "--json", "q"}), {},
                                                   dir_ / ("q-" + n.lid + ".json"), dir_ / ("q-" + n.lid + ".err")));
      if (!q) {
        ADD_FAILURE() << q.error().message();
        continue;
      }
      running.emplace_back(&n, std::move(*q));
    }
    for (auto& q : running) finish(q);
    return state;
  }
  // Every node with its new image on flash and its own GUID (the node GUID the fabric gave it).
  void expect_new_firmware_and_own_identity(const std::map<std::string, std::string>& state) {
    EXPECT_EQ(state.size(), nodes_.size());
    for (const auto& n : nodes_) {
      const auto it = state.find(n.guid);
      if (it != state.end()) {
        EXPECT_EQ(it->second, new_version(n) + " " + n.guid) << n.name;
      }
    }
  }

  TempDir dir_;
  fs::path images_ = dir_ / "images";
  fs::path journal_ = dir_ / "update.journal";
  fs::path fabric_dir_;
  std::unique_ptr<ChildProcess> fabric_;
  std::unique_ptr<ChildProcess> update_;
  std::string socket_;
  std::vector<TopologyNode> nodes_;
};

TEST_F(FabricUpdateSim, SixtyFourNodesKilledAtThreePointsResumeWithoutReburningFinishedNodes) {
  ASSERT_NO_FATAL_FAILURE(bring_up(dir_ / "fabric", 4, 12, 4, kCodeBytes));  // 4 spines, 12 leaves, 48 hosts
  constexpr int kParallel = 16;
  // Kill 1: in the middle of the first burns (nothing burned yet).
  ASSERT_NO_FATAL_FAILURE(kill_update_when("started", 1, std::chrono::milliseconds(kMidBurnMs), kParallel));
  ASSERT_NO_FATAL_FAILURE(expect_every_node_bootable("after a kill in the first burns"));
  // Kill 2: a resumed run, right after the fabric's 20th burn ended: that node is being checked
  // (its burned image read back, its flash lock held), recorded burned, not yet verified.
  ASSERT_NO_FATAL_FAILURE(kill_update_when("burned", 20, std::chrono::milliseconds(0), kParallel));
  ASSERT_NO_FATAL_FAILURE(expect_every_node_bootable("after a kill right after the 20th burn"));
  std::map<std::string, std::string> last_state;
  for (const auto& [guid, state] : journal_records(journal_)) last_state[guid] = state;
  EXPECT_GE(std::count_if(last_state.begin(), last_state.end(), [](const auto& g) { return g.second == "burned"; }), 1)
      << "no node was killed between its burn and its check";
  // Kill 3: in the middle of a later burn.
  const std::size_t started = journal_states(journal_, "started");
  ASSERT_NO_FATAL_FAILURE(
      kill_update_when("started", started + 1, std::chrono::milliseconds(kMidBurnMs), kParallel));
  ASSERT_NO_FATAL_FAILURE(expect_every_node_bootable("after a kill in a later burn"));

  // What the journal calls finished before the last run: burned, or found up to date by a run.
  std::set<std::string> finished;
  for (const auto& [guid, state] : journal_records(journal_))
    if (state == "burned" || state == "up-to-date") finished.insert(guid);
  ASSERT_GE(finished.size(), 20u);
  ASSERT_LT(finished.size(), nodes_.size()) << "the last kill came too late: nothing left to resume";
  const json last = update(kParallel);
  ASSERT_TRUE(last.value("ok", false)) << last.dump(2);
  ASSERT_EQ(last["nodes"].size(), nodes_.size());
  std::size_t burned_now = 0, unrecorded = 0;
  for (const auto& n : last["nodes"]) {
    const std::string guid = n["guid"];
    if (finished.count(guid) != 0) {
      EXPECT_EQ(n["status"], "up-to-date") << "finished before: not burned again " << n.dump(2);
      EXPECT_EQ(n["mads"], 0) << n.dump(2);
    } else if (n["status"] == "up-to-date") {
      ++unrecorded;  // killed between its burn's end and the record of it: the flash says done
    } else {
      EXPECT_EQ(n["status"], "updated") << n.dump(2);
      ++burned_now;
    }
  }
  EXPECT_GE(burned_now, 1u);
  EXPECT_LE(unrecorded, static_cast<std::size_t>(kParallel)) << "only nodes the last kill caught ending their burn";
  EXPECT_EQ(burned_now + finished.size() + unrecorded, nodes_.size());
  // Over the four runs no node's burn completed twice; a node without a "burned" record is one a
  // kill caught between its burn's end and that record, which a later run found done on flash.
  std::map<std::string, int> burned;
  std::set<std::string> found_done;
  for (const auto& [guid, state] : journal_records(journal_)) {
    if (state == "burned") ++burned[guid];
    if (state == "up-to-date") found_done.insert(guid);
  }
  for (const auto& n : nodes_) {
    const int count = burned.count(n.guid) != 0 ? burned.at(n.guid) : 0;
    EXPECT_TRUE(count == 1 || (count == 0 && found_done.count(n.guid) != 0))
        << n.name << " " << n.guid << ": burned " << count << " times";
  }
  expect_new_firmware_and_own_identity(end_state(4));
  stop_fabric();
}

// One at a time or 16 at a time, the same fabric ends in the same state (a smaller tree: one at a
// time, a node's burn is not shared with others and 64 would take a minute).
TEST_F(FabricUpdateSim, ParallelOneAndSixteenEndInTheSameState) {
  std::map<int, std::map<std::string, std::string>> end;
  for (const int parallel : {1, 16}) {
    SCOPED_TRACE("--parallel " + std::to_string(parallel));
    journal_ = dir_ / ("parallel-" + std::to_string(parallel) + ".journal");
    // 1 spine, 2 leaves, 4 hosts each: 11 nodes, all burned at once with --parallel 16.
    ASSERT_NO_FATAL_FAILURE(bring_up(dir_ / ("fabric-" + std::to_string(parallel)), 1, 2, 4, kCodeBytes));
    const json up = update(parallel);
    std::size_t updated = 0;
    for (const auto& n : up.value("nodes", json::array())) updated += n["status"] == "updated" ? 1 : 0;
    EXPECT_EQ(updated, nodes_.size()) << up.dump(2);
    EXPECT_EQ(journal_states(journal_, "burned"), nodes_.size());
    end[parallel] = end_state(2);
    expect_new_firmware_and_own_identity(end[parallel]);
    stop_fabric();
  }
  EXPECT_EQ(end[1], end[16]);
}

}  // namespace
}  // namespace openflint::test
