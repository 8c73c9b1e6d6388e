// ibadm start on an ibsim fabric: the bus server serves the local node's device, the name server sweeps the
// fabric and joins both; flint -d name:NODE opens the out-of-band node through the bus server and the others in-band.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <tuple>

#include "fabric/ServiceProcess.h"
#include "tests/inband/DeviceFabricFixture.h"
#include "tests/support/LoopbackPort.h"

namespace openflint::test {
namespace {

using nlohmann::json;

constexpr std::uint64_t kLocalGuid = 0x0002c90300c20000ull;
constexpr std::uint64_t kSwitchGuid = 0x0002c90300c2f000ull;  // named spine-1 by the name server's name map

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

class IbadmFabric : public DeviceFabricFixture {
 protected:
  void TearDown() override {
    // The services first (they are clients of the fabric), then the fabric.
    (void)run_command({bin("ibadm").string(), "stop", "--config", config_.string()});
    const auto run = dir_.path() / "run";
    for (const auto& [file, program, sub] : {std::tuple{"bus-server.pid", bin("mst"), "server"},
                                             std::tuple{"inband-server.pid", bin("mst"), "server"},
                                             std::tuple{"name-server.pid", bin("ibadm"), "name-server"}}) {
      const ServiceStatus s = service_status(run / file, program.string(), sub);
      if (s.state == ServiceState::Running) ::kill(s.pid, SIGKILL);
    }
    // ibsim's preload leaves the sys-<pid> of a process that swept, even one that ended cleanly (as
    // tests/web_inband does for mst web): the name server's, in the fabric's dir (ibadm start's cwd).
    if (fabric_)
      for (const pid_t pid : pids_) std::filesystem::remove_all(fabric_->dir() / ("sys-" + std::to_string(pid)));
    DeviceFabricFixture::TearDown();
  }

  // A tool on the fabric's client node with the test's ibadm.conf.
  CapturedRun on_fabric(std::vector<std::string> argv) {
    argv.insert(argv.begin(), {"env", "OPENFLINT_IBADM_CONF=" + config_.string(), "OPENFLINT_NAME_SERVER="});
    return run(argv);
  }

  std::filesystem::path config_ = dir_.path() / "ibadm.conf";
  std::vector<pid_t> pids_;  // the services ibadm started
};

TEST_F(IbadmFabric, NamesResolveOutOfBandAndInBand) {
  const auto sw = dir_.path() / "sw.bin";
  const auto cx4 = dir_.path() / "cx4.bin";
  write_file(sw, small_fs3_image(30, "MT_1780110032", 0x249));
  write_file(cx4, small_fs3_image(20));
  bring_up({{"Switch1", "spectrum", sw}, {"Hca2", "connectx4", cx4}}, {{"Hca1", kLocalGuid}, {"Switch1", kSwitchGuid}});
  if (HasFatalFailure() || IsSkipped()) return;
  // The local node's adapter, served by this host's bus server.
  write_file(dir_.path() / "local.bin", small_fs3_image(10, "MT_2190110032", 0x209, 4096, kLocalGuid));
  const auto local = dir_.path() / "local";
  const auto made = run_command({bin("hcasim").string(), "create", "--model", "connectx4", local.string(), "--image",
                                 (dir_.path() / "local.bin").string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  write_text(dir_.path() / "ibadm.hosts", "# only this host's own bus server\n");
  write_text(dir_.path() / "ibadm.names", "spine-1 0x0002c90300c2f000\n");
  write_text(config_, "run_dir = " + (dir_.path() / "run").string() + "\n"
                      "bus_server = yes\nbus_server_port = 0\nbus_server_devices = sim:" + local.string() + "\n"
                      "inband_server = yes\ninband_server_port = 0\n"
                      "name_server = yes\nname_server_port = " + std::to_string(unused_loopback_port()) + "\n"
                      "hosts = " + (dir_.path() / "ibadm.hosts").string() + "\n"
                      "names = " + (dir_.path() / "ibadm.names").string() + "\n");

  const auto started = on_fabric({bin("ibadm").string(), "start", "--json"});
  ASSERT_EQ(started.exit_code, 0) << started.out << started.err;
  const json doc = json::parse(started.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << started.out;
  for (const auto& s : doc["services"]) pids_.push_back(s["pid"].get<pid_t>());
  ASSERT_EQ(pids_.size(), 3u) << started.out;
  std::string inband_address;
  for (const auto& s : doc["services"])
    if (s["name"] == "inband-server") inband_address = s["address"].get<std::string>();
  ASSERT_FALSE(inband_address.empty()) << started.out;

  const auto listed = on_fabric({bin("ibadm").string(), "names", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const json names = json::parse(listed.out, nullptr, false);
  ASSERT_EQ(names["entries"].size(), 3u) << listed.out;

  // Out-of-band: Hca1's GUID is the one its served device's flash holds.
  const auto oob = on_fabric({bin("flint").string(), "-d", "name:Hca1", "q"});
  EXPECT_EQ(oob.exit_code, 0) << oob.out << oob.err;
  EXPECT_NE(oob.out.find("12.10.1000"), std::string::npos) << oob.out;
  // In-band: the others by lid-N.
  const auto hca2 = on_fabric({bin("flint").string(), "-d", "name:Hca2", "q"});
  EXPECT_EQ(hca2.exit_code, 0) << hca2.out << hca2.err;
  EXPECT_NE(hca2.out.find("12.20.1000"), std::string::npos) << hca2.out;
  // The switch by the name the name server's name map gives it.
  const auto sw1 = on_fabric({bin("flint").string(), "-d", "name:spine-1", "q"});
  EXPECT_EQ(sw1.exit_code, 0) << sw1.out << sw1.err;
  EXPECT_NE(sw1.out.find("12.30.1000"), std::string::npos) << sw1.out;
  const auto by_lid = on_fabric({bin("ibadm").string(), "names", std::to_string(lids_["Hca2"])});
  EXPECT_EQ(by_lid.exit_code, 0) << by_lid.err;
  EXPECT_NE(by_lid.out.find("Hca2"), std::string::npos) << by_lid.out;

  // The in-band server: a tool that has no fabric of its own reaches a node through it.
  const auto through_inband = run_command({bin("flint").string(), "-d", inband_address + "," + lid_name("Hca2"), "q"});
  EXPECT_EQ(through_inband.exit_code, 0) << through_inband.out << through_inband.err;
  EXPECT_NE(through_inband.out.find("12.20.1000"), std::string::npos) << through_inband.out;

  // ibfwmgr --node: a name only the name server knows (ibfwmgr is given no name map) selects
  // exactly that node; a name nobody knows is a usage error.
  const auto selected = on_fabric({bin("ibfwmgr").string(), "list", "--node", "spine-1", "--json"});
  ASSERT_EQ(selected.exit_code, 0) << selected.out << selected.err;
  const json inventory = json::parse(selected.out, nullptr, false);
  ASSERT_FALSE(inventory.is_discarded()) << selected.out;
  ASSERT_EQ(inventory["nodes"].size(), 1u) << selected.out;
  EXPECT_EQ(inventory["nodes"][0]["guid"], "0x0002c90300c2f000") << selected.out;
  const auto unknown = on_fabric({bin("ibfwmgr").string(), "list", "--node", "no-such-system"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.out << unknown.err;
  EXPECT_NE(unknown.err.find("--node no-such-system matches no node"), std::string::npos) << unknown.err;

  const auto status = run_command({bin("ibadm").string(), "status", "--config", config_.string()});
  EXPECT_EQ(status.exit_code, 0) << status.out << status.err;
  EXPECT_NE(status.out.find("bus-server: running"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("name-server: running"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("inband-server: running"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("3 name(s)"), std::string::npos) << status.out;

  const auto stopped = run_command({bin("ibadm").string(), "stop", "--config", config_.string()});
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  for (const pid_t pid : pids_) EXPECT_FALSE(process_alive(pid)) << "process " << pid << " left running";
}

}  // namespace
}  // namespace openflint::test
