// In tests/web_inband (labels web, inband): ibsim's preload does not run under ASan, so CI runs it in the release build.
// mst web --fabric on a small ibsim fat tree (2 spines, 2 leaves, 4 hosts; simulated ConnectX-4s
// behind host-2, new firmware, and host-3, old firmware and hot): the served documents are the fabric tools' (ibls -e --json, ibfwmgr list --json,
// ibmon --json counts), and, in Debian's headless chromium (tests/web/fabric_check.py), the Fabric
// page draws every system and cable, marks the cable removed from the wired fabric as missing, a
// port with symbol errors and the hot adapter's temperature with its limit, and lists the firmware
// with the old version marked; then host-3 is updated from the page (per-node progress; its flash then
// has the new image). Screenshots: BUILD/web-screenshots/fabric.png, fabric-updated.png. No server, browser, ibsim or responder
// process may be left.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "core/ChildProcess.h"
#include "fabric/FatTree.h"
#include "fabric/IbsimTopology.h"
#include "tests/support/IbsimFabric.h"
#include "tests/support/TestSupport.h"
#include "tests/web/BrowserSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

class WebFabric : public IbsimFabricTest {
 protected:
  WebFabric() : IbsimFabricTest({"ibsim", "opensm"}) {}

  void SetUp() override {
    IbsimFabricTest::SetUp();
    if (IsSkipped()) return;
    FatTreeSpec spec;
    spec.spines = 2;
    spec.leaves = 2;
    spec.hosts_per_leaf = 2;
    auto tree = make_fat_tree(spec);
    ASSERT_TRUE(tree) << tree.error().message();
    declared_ = *tree;
    std::ofstream(dir_ / "fabric.topo") << declared_.to_text();
  }

  void TearDown() override {
    stop_server();
    IbsimFabricTest::TearDown();
  }

  // The fabric as wired, with simulated ConnectX-4s behind host-2 (new firmware) and host-3 (old, at `celsius`).
  void up(const Topology& wired, std::uint32_t celsius) {
    auto text = ibsim_topology_text(wired);
    ASSERT_TRUE(text) << text.error().message();
    SimFabric::Options o;
    o.topology = *text;
    o.local_node = "host-1";
    ASSERT_NO_FATAL_FAILURE(start_fabric(o));
    ASSERT_NO_FATAL_FAILURE(device("host-2", "connectx4-new", 50));
    ASSERT_NO_FATAL_FAILURE(device("host-3", "connectx4-old", celsius));
  }

  void device(const std::string& node, const std::string& sample, std::uint32_t celsius) {
    const fs::path dev = dir_ / (node + ".dev");
    const auto made = run_tool("hcasim", {"create", "--model", "connectx4", dev.string(), "--image", sample_image(sample).string()});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const auto hot = run_tool("hcasim", {"set-temperature", dev.string(), std::to_string(celsius)});
    ASSERT_EQ(hot.exit_code, 0) << hot.err;
    auto pid = fabric_->start_responder(node, {bin("ibsim-responder").string(), "--sim", dev.string()});
    ASSERT_TRUE(pid) << pid.error().message();
  }

  // mst web --fabric as a client of the fabric on host-1. No device is served: under umad2sim, a
  // device query in-band beside a fabric sweep in the same process (two threads on umad ports)
  // may end the process; the device links are checked in-process (test_web_fabric_api.cpp).
  // With `images`, the page may update nodes with the images of that folder (--images).
  void serve(const fs::path& images = {}) {
    fs::create_directories(dir_ / "sys" / "devices");  // no PCI functions either
    std::vector<std::string> argv = {bin("mst").string(), "web", "--listen", "127.0.0.1:0", "--sysfs", (dir_ / "sys").string(),
                                     "--fabric", "-t", (dir_ / "fabric.topo").string(), "--audit-log", (dir_ / "audit.log").string()};
    if (!images.empty()) argv.insert(argv.end(), {"--images", images.string()});
    SpawnSpec spec = background_tool(argv, {}, dir_ / "web.out", dir_ / "web.err");
    for (const auto& [k, v] : fabric_->client_env("host-1")) spec.env[k] = v;
    spec.cwd = fabric_->dir();  // the preload's sys-<pid> lands in the fabric's dir
    auto server = ChildProcess::spawn(spec);
    ASSERT_TRUE(server.has_value()) << server.error().message();
    server_.emplace(std::move(*server));
    const std::regex printed(R"(-I- serving 0 device\(s\) and the fabric on (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32})))");
    std::string err;
    std::smatch m;
    for (int i = 0; i < 1000 && !std::regex_search(err, m, printed); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      err = server_->err();
    }
    ASSERT_FALSE(m.empty()) << "mst web printed no URL: " << err;
    url_ = m[1].str();
    port_ = std::stoi(m[2].str());
    token_ = m[3].str();
  }

  void stop_server() {
    if (!server_) return;
    const pid_t pid = server_->pid();
    EXPECT_TRUE(server_->running()) << "mst web ended before it was stopped: " << server_->err();
    EXPECT_EQ(server_->stop(5000), 0) << "mst web should end cleanly on SIGTERM: " << server_->err();
    server_.reset();
    if (fabric_) fs::remove_all(fabric_->dir() / ("sys-" + std::to_string(pid)));
  }

  json get_json(const std::string& path) {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(60, 0);
    auto res = client.Get(path.c_str(), {{"X-Openflint-Token", token_}});
    EXPECT_TRUE(res) << path;
    if (!res) return json();
    EXPECT_EQ(res->status, 200) << path << ": " << res->body;
    return json::parse(res->body, nullptr, false);
  }

  json tool_json(const std::string& tool, std::vector<std::string> args, int expected_rc) {
    args.insert(args.begin(), bin(tool).string());
    const auto r = run_on("host-1", args, 60000);
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    return json::parse(r.out, nullptr, false);
  }

  static json without(json doc, std::initializer_list<const char*> keys) {
    for (const char* k : keys) {
      EXPECT_TRUE(doc.contains(k)) << k;
      doc.erase(k);
    }
    return doc;
  }

  TempDir dir_;
  Topology declared_;
  std::optional<ChildProcess> server_;
  std::string url_;  // as printed, with the token
  int port_ = 0;
  std::string token_;
};

TEST_F(WebFabric, TheDocumentsAreTheFabricToolsDocuments) {
  ASSERT_NO_FATAL_FAILURE(up(declared_, 50));
  ASSERT_NO_FATAL_FAILURE(serve());
  const std::string topo = (dir_ / "fabric.topo").string();
  const json listing = get_json("/api/fabric");
  EXPECT_EQ(without(listing, {"json_version", "topology", "swept_at", "device_pages"}),
            without(tool_json("ibls", {"-t", topo, "-e", "--json"}, 0), {"json_version"}));
  EXPECT_EQ(listing["systems"].size(), 8u);
  EXPECT_EQ(listing["cables"].size(), 8u);
  EXPECT_TRUE(listing["check"]["clean"].get<bool>()) << listing["check"].dump(1);
  EXPECT_EQ(listing["device_pages"], json::object());

  const json firmware = get_json("/api/fabric/firmware");
  EXPECT_EQ(without(firmware, {"json_version", "queried_at", "device_pages", "update_images"}),
            without(tool_json("ibfwmgr", {"list", "-t", topo, "--json"}, 0), {"json_version"}));

  const json health = get_json("/api/fabric/health");
  const json ibmon = tool_json("ibmon", {"--json"}, 0);
  ASSERT_EQ(ibmon["passes"].size(), 1u) << ibmon.dump(1);
  for (const char* k : {"nodes", "ports", "counters_read", "temperatures_read", "healthy", "findings"})
    EXPECT_EQ(health[k], ibmon["passes"][0][k]) << k;
  EXPECT_EQ(health["readings"]["temperatures"].size(), 2u) << health["readings"].dump(1);
  EXPECT_EQ(health["readings"]["ports"].size(), 16u);
}

TEST_F(WebFabric, ThePageDrawsTheFabricAndMarksTheMissingCable) {
  if (!have_browser())
    GTEST_SKIP() << "chromium, chromedriver or python3-selenium is not installed (README's test command installs them); "
                    "fabric page not checked in a browser";
  auto wired = declared_;
  ASSERT_TRUE(wired.remove_cable(Topology::Port{"leaf-2", 3}));  // leaf-2 P3 <-> spine-1 P2
  ASSERT_NO_FATAL_FAILURE(up(wired, 90));
  auto raised = fabric_->console("PerformanceSet \"leaf-1\"[1] PortCounters.SymbolErrorCounter=7");
  ASSERT_TRUE(raised) << raised.error().message();
  // The page may burn connectx4-new into the nodes chosen there (host-3 runs connectx4-old).
  fs::create_directories(dir_ / "images");
  fs::copy_file(sample_image("connectx4-new"), dir_ / "images" / "connectx4-new.bin");
  const auto image = run_tool("flint", {"-i", sample_image("connectx4-new").string(), "q", "--json"});
  ASSERT_EQ(image.exit_code, 0) << image.err;
  const std::string new_version = json::parse(image.out)["fw_version"];
  ASSERT_NO_FATAL_FAILURE(serve(dir_ / "images"));

  const fs::path shots = bin("mst").parent_path().parent_path() / "web-screenshots";
  fs::create_directories(shots);
  fs::remove(shots / "fabric.png");
  const std::string profile = (dir_ / "chromium-profile").string();
  SpawnSpec check;
  check.argv = {"/usr/bin/python3", (fs::path(OPENFLINT_SOURCE_DIR) / "tests/web/fabric_check.py").string(),
                "--url", url_, "--nodes", "8", "--cables", "7", "--missing", "leaf-2 P3|spine-1 P2",
                "--warn", "leaf-1 P1", "--hot", "host-3", "--old", "host-3", "--new", "host-2",
                "--update", "host-3", "--update-version", new_version,
                "--screenshots", shots.string(), "--profile", profile};
  const auto ran = ChildProcess::run(check, 240000);
  ASSERT_TRUE(ran.has_value()) << ran.error().message();
  EXPECT_EQ(ran->exit_code, 0) << ran->out << ran->err;
  std::ifstream png(shots / "fabric.png", std::ios::binary);
  char magic[8] = {};
  png.read(magic, sizeof magic);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG") << shots / "fabric.png";
  EXPECT_EQ(processes_mentioning(profile), std::vector<std::string>{}) << "a browser process outlived the check";
  // The update from the page: host-3's flash has the new image (ibfwmgr list agrees), and the audit says so.
  const json listed = tool_json("ibfwmgr", {"list", "-t", (dir_ / "fabric.topo").string(), "--json"}, 0);
  bool host3 = false;
  for (const auto& n : listed["nodes"])
    if (n["system"]["name"] == "host-3") host3 = n["flash_fw_version"] == new_version;
  EXPECT_TRUE(host3) << listed.dump(1);
  const std::string lines = read_text(dir_ / "audit.log");
  EXPECT_NE(lines.find("fabric update: host-3 updated"), std::string::npos) << lines;
}

}  // namespace
}  // namespace openflint::test
