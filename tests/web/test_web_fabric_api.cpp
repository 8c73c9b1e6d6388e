// mst web --fabric's API in-process (web/WebServer over a canned FabricSource, an httplib client):
// /api/fabric is ibls -e --json's document (a cable the topology file declares and the fabric lacks
// is a missing-cable finding), /api/fabric/firmware ibfwmgr list --json's, /api/fabric/health an
// ibmon --watch pass judged against the previous one; sweeps are kept (refresh asks again), errors
// are the error document, and a console without --fabric serves none.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <mutex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "fabric/FatTree.h"
#include "fabric/ImageSet.h"
#include "reports/FabricFirmwareReport.h"
#include "reports/FabricHealthReport.h"
#include "reports/FabricListing.h"
#include "tests/support/TestSupport.h"
#include "tests/web/InProcessWeb.h"
#include "web/FabricApi.h"
#include "web/WebServer.h"

namespace openflint::test {
namespace {

using nlohmann::json;

// A 1-spine, 1-leaf, 2-host tree whose spine cable is not plugged in; the leaf runs hot and its
// port 1 has counted symbol errors.
class CannedFabric final : public FabricSource {
 public:
  CannedFabric() {
    const auto add = [this](FabricNode::Type type, std::uint64_t guid, std::uint16_t lid, const char* name, std::uint16_t dev) {
      FabricNode n;
      n.type = type;
      n.guid = guid;
      n.lid = lid;
      n.description = name;
      n.vendor_id = 0x02c9;
      n.device_id = dev;
      sweep_.nodes.push_back(n);
    };
    add(FabricNode::Type::Switch, 0x100, 1, "spine-1", 52000);
    add(FabricNode::Type::Switch, 0x200, 2, "leaf-1", 52000);
    add(FabricNode::Type::Hca, 0x300, 3, "host-1", 0x1013);
    add(FabricNode::Type::Hca, 0x400, 4, "host-2", 0x1013);
    sweep_.links = {{0x200, 1, 0x300, 1, "4x", "EDR", "Active"}, {0x200, 2, 0x400, 1, "4x", "EDR", "Active"}};
  }

  Result<FabricSweep> sweep() override {
    ++sweeps;
    if (fail) return make_error(ErrorCode::Io, "the sweep failed");
    return sweep_;
  }
  std::map<std::uint64_t, std::string> running_firmware(const std::vector<FabricNode>&) override {
    return {{0x200, "11.2000.1000"}};
  }
  Result<FirmwareInventory> inventory() override {
    ++inventories;
    FirmwareInventory inv;
    for (const auto& n : sweep_.nodes) {
      NodeFirmware f;
      f.node = n;
      f.vendor_access = n.guid != 0x100;
      if (f.vendor_access) {
        f.device = n.type == FabricNode::Type::Hca ? "ConnectX-4" : "Switch-IB";
        f.psid = n.type == FabricNode::Type::Hca ? "MT_2190110032" : "MT_1870110032";
        f.psid_source = "running";
        f.fw_version = FwVersion{12, 20, static_cast<std::uint16_t>(n.guid == 0x400 ? 1000 : 2000)};
        f.flash_fw_version = f.fw_version;
      } else {
        f.note = "no vendor access: timeout";
      }
      inv.nodes.push_back(f);
    }
    return inv;
  }
  Result<HealthSample> sample(const FabricSweep& swept) override {
    HealthSample s;
    for (const auto& l : swept.links) {
      for (const NodePort& p : {NodePort{l.guid_a, l.port_a}, NodePort{l.guid_b, l.port_b}}) {
        s.port_state[p] = l.state;
        s.counters[p] = {{"SymbolErrorCounter", p == NodePort{0x200, 1} ? 5u : 0u}, {"LinkDownedCounter", 0}};
      }
    }
    s.temperature_c[0x200] = 90;
    s.temperature_notes[0x100] = "no vendor access";
    return s;
  }

  // An update as update_fabric reports it, each node's burn in two progress steps.
  Result<std::vector<NodeUpdate>> update(const std::vector<NodeFirmware>& nodes, const ImageSet&,
                                         const FabricUpdateOptions& options) override {
    std::vector<NodeUpdate> out;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      for (const std::uint64_t done : {std::uint64_t{512}, std::uint64_t{1024}})
        if (options.progress) options.progress(i, BurnProgress{"writing", done, 1024});
      NodeUpdate u;
      u.before = nodes[i];
      u.status = NodeUpdateStatus::Updated;
      u.image = "canned.bin";
      out.push_back(u);
      updated.push_back(nodes[i].node.guid);
    }
    return out;
  }

  const FabricSweep& canned() const { return sweep_; }
  std::vector<std::uint64_t> updated;
  std::atomic<int> sweeps{0};
  std::atomic<int> inventories{0};
  std::atomic<bool> fail{false};

 private:
  FabricSweep sweep_;
};

class WebFabricApi : public ::testing::Test {
 protected:
  void SetUp() override {
    FatTreeSpec spec;
    spec.spines = 1;
    spec.leaves = 1;
    spec.hosts_per_leaf = 2;
    auto tree = make_fat_tree(spec);
    ASSERT_TRUE(tree) << tree.error().message();
    std::ofstream(dir_ / "fabric.topo") << tree->to_text();
    SystemNamingFiles files;
    files.topology = (dir_ / "fabric.topo").string();
    auto naming = SystemNaming::load(files);
    ASSERT_TRUE(naming) << naming.error().message();
    naming_ = *naming;
  }
  void TearDown() override { web_.stop(); }

  void start(bool with_fabric, std::shared_ptr<const ImageSet> images = nullptr, bool read_only = false) {
    WebOptions options;
    options.devices = {"lid-3"};  // host-1's device: its system links to the device page
    options.read_only = read_only;
    options.audit = [this](std::string_view line) {
      const std::lock_guard lock(audit_mutex_);
      audit_ += std::string(line) + "\n";
    };
    if (with_fabric) options.fabric = FabricApiOptions{source_, naming_, HealthThresholds::defaults(), std::move(images)};
    web_.start(std::move(options));
    ASSERT_TRUE(web_.ready());
    server_ = &web_.server();
    client_ = &web_.client();
  }

  httplib::Result get(const std::string& path, bool token = true) {
    httplib::Headers h;
    if (token) h = {{"X-Openflint-Token", server_->token()}};
    return client_->Get(path.c_str(), h);
  }
  json get_json(const std::string& path, int status = 200) {
    auto res = get(path);
    EXPECT_TRUE(res) << path;
    if (!res) return json();
    EXPECT_EQ(res->status, status) << path << ": " << res->body;
    auto j = json::parse(res->body, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << res->body;
    return j;
  }
  // A served document without the members the page adds and the version stamp every answer has.
  static json cli_part(json doc, std::initializer_list<const char*> extras) {
    for (const char* k : extras) {
      EXPECT_TRUE(doc.contains(k)) << k << " missing from " << doc.dump(1);
      doc.erase(k);
    }
    doc.erase("json_version");
    return doc;
  }

  std::shared_ptr<const ImageSet> images() {
    std::filesystem::create_directories(dir_ / "images");
    std::filesystem::copy_file(sample_image("connectx4-new"), dir_ / "images" / "connectx4-new.bin");
    auto set = ImageSet::from_directory(dir_ / "images");
    EXPECT_TRUE(set) << set.error().message();
    return set ? std::make_shared<const ImageSet>(std::move(*set)) : nullptr;
  }
  json post_update(const json& body, int status) {
    auto res = client_->Post("/api/fabric/update", {{"X-Openflint-Token", server_->token()}}, body.dump(), "application/json");
    EXPECT_TRUE(res);
    if (!res) return json();
    EXPECT_EQ(res->status, status) << res->body;
    return json::parse(res->body, nullptr, false);
  }
  std::string audit() {
    const std::lock_guard lock(audit_mutex_);
    return audit_;
  }

  std::mutex audit_mutex_;
  std::string audit_;
  TempDir dir_;
  SystemNaming naming_;
  std::shared_ptr<CannedFabric> source_ = std::make_shared<CannedFabric>();
  InProcessWeb web_;
  WebServer* server_ = nullptr;  // web_'s, while it serves
  httplib::Client* client_ = nullptr;
};

TEST_F(WebFabricApi, TheListingIsIblsDocumentWithTheMissingCableMarked) {
  start(true);
  const json doc = get_json("/api/fabric");
  reports::FabricListingFilter checked;
  checked.check = true;
  auto listing = reports::make_fabric_listing(naming_, source_->canned(), source_->running_firmware({}), checked);
  ASSERT_TRUE(listing) << listing.error().message();
  EXPECT_EQ(cli_part(doc, {"topology", "swept_at", "device_pages"}), reports::listing_json(*listing));
  EXPECT_EQ(doc["systems"].size(), 4u);
  EXPECT_EQ(doc["cables"].size(), 2u);
  EXPECT_TRUE(doc["topology"].get<bool>());
  EXPECT_EQ(doc["device_pages"], (json{{"0x0000000000000300", 0}}));
  ASSERT_EQ(doc["check"]["findings"].size(), 1u) << doc["check"].dump(1);
  const json& f = doc["check"]["findings"][0];
  EXPECT_EQ(f["kind"], "missing-cable");
  const std::set<std::string> ends{f["system"].get<std::string>(), f["expected"]["system"].get<std::string>()};
  EXPECT_EQ(ends, (std::set<std::string>{"leaf-1", "spine-1"})) << f.dump(1);
  EXPECT_FALSE(doc["check"]["clean"].get<bool>());
  for (const auto& s : doc["systems"]) {
    if (s["name"] == "leaf-1") {
      EXPECT_EQ(s["fw_version"], "11.2000.1000");
    }
  }

  // Kept: a second look does not sweep again; refresh does.
  const int sweeps = source_->sweeps;
  EXPECT_EQ(get_json("/api/fabric")["swept_at"], doc["swept_at"]);
  EXPECT_EQ(source_->sweeps, sweeps);
  (void)get_json("/api/fabric?refresh=1");
  EXPECT_EQ(source_->sweeps, sweeps + 1);

  // A sweep that fails is the error document (and is not kept).
  source_->fail = true;
  const json failed = get_json("/api/fabric?refresh=1", 500);
  EXPECT_FALSE(failed["ok"].get<bool>());
  EXPECT_NE(failed["error"]["message"].get<std::string>().find("the sweep failed"), std::string::npos) << failed.dump(1);
}

TEST_F(WebFabricApi, TheFirmwareIsIbfwmgrListsDocument) {
  start(true);
  const json doc = get_json("/api/fabric/firmware");
  auto inventory = source_->inventory();
  ASSERT_TRUE(inventory);
  EXPECT_EQ(cli_part(doc, {"queried_at", "device_pages", "update_images"}),
            reports::inventory_json(inventory->nodes, naming_, inventory->hosts));
  EXPECT_TRUE(doc["update_images"].is_null()) << "no --images: no updates offered";
  ASSERT_EQ(doc["nodes"].size(), 4u);
  EXPECT_EQ(doc["nodes"][3]["fw_version"], (FwVersion{12, 20, 1000}.to_string()));
  EXPECT_EQ(doc["nodes"][0]["vendor_access"], false);
  const int asked = source_->inventories;
  (void)get_json("/api/fabric/firmware");
  EXPECT_EQ(source_->inventories, asked);
  (void)get_json("/api/fabric/firmware?refresh=1");
  EXPECT_EQ(source_->inventories, asked + 1);
}

TEST_F(WebFabricApi, HealthIsIbmonsPassWithItsReadings) {
  start(true);
  const json first = get_json("/api/fabric/health");
  EXPECT_EQ(first["pass"], 1);
  EXPECT_FALSE(first["healthy"].get<bool>());
  EXPECT_TRUE(first["deltas"].is_null());
  std::map<std::string, json> by_kind;
  for (const auto& f : first["findings"]) by_kind[f["kind"].get<std::string>()] = f;
  ASSERT_EQ(first["findings"].size(), 2u) << first["findings"].dump(1);
  EXPECT_EQ(by_kind["counter"]["system"], "leaf-1");
  EXPECT_EQ(by_kind["counter"]["port"], 1);
  EXPECT_EQ(by_kind["counter"]["value"], 5);
  EXPECT_EQ(by_kind["temperature"]["value"], 90.0);
  EXPECT_EQ(by_kind["temperature"]["limit"], 85.0);
  // The pass is ibmon's document for the same sample.
  auto sample = source_->sample(source_->canned());
  ASSERT_TRUE(sample);
  const auto pass = reports::make_health_pass(1, source_->canned(), *sample, nullptr, HealthThresholds::defaults());
  json expected = reports::health_pass_json(pass, naming_);
  expected["ok"] = true;
  EXPECT_EQ(cli_part(first, {"readings", "sampled_at_ms"}), expected);
  // The readings behind it: every cabled port with its counters, the temperatures, the limits.
  const json& r = first["readings"];
  EXPECT_EQ(r["ports"].size(), 4u);
  EXPECT_EQ(r["temperatures"], json::array({{{"system", "leaf-1"}, {"guid", "0x0000000000000200"}, {"celsius", 90.0}}}));
  EXPECT_EQ(r["thresholds"]["temperature_c"], 85);
  EXPECT_EQ(r["thresholds"]["counters"]["SymbolErrorCounter"], 0);
  bool seen = false;
  for (const auto& p : r["ports"]) {
    if (p["system"] == "leaf-1" && p["port"] == 1) {
      EXPECT_EQ(p["counters"]["SymbolErrorCounter"], 5);
      EXPECT_EQ(p["state"], "Active");
      seen = true;
    }
  }
  EXPECT_TRUE(seen) << r["ports"].dump(1);

  // Asked again at once: the same pass. After the interval: pass 2, judged by the increase (none).
  EXPECT_EQ(get_json("/api/fabric/health")["pass"], 1);
  std::this_thread::sleep_for(FabricApi::kHealthInterval + std::chrono::milliseconds(100));
  const json second = get_json("/api/fabric/health");
  EXPECT_EQ(second["pass"], 2);
  EXPECT_EQ(second["deltas"], json::array());
  ASSERT_EQ(second["findings"].size(), 1u) << second["findings"].dump(1);
  EXPECT_EQ(second["findings"][0]["kind"], "temperature");
}

TEST_F(WebFabricApi, TheFabricNeedsTheTokenAndAConsoleWithoutFabricServesNone) {
  start(false);
  auto res = get("/api/fabric", false);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 403);
  const json none = get_json("/api/fabric", 404);
  EXPECT_NE(none["error"]["message"].get<std::string>().find("--fabric"), std::string::npos) << none.dump(1);
  (void)get_json("/api/fabric/health", 404);
  EXPECT_EQ(source_->sweeps, 0);
  // The page and its script are served (no inline script: the CSP allows only 'self').
  auto page = get("/fabric");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script src=\"/assets/fabric.js\" defer></script>"), std::string::npos);
  EXPECT_EQ(page->body.find("<script>"), std::string::npos);
  EXPECT_EQ(page->get_header_value("Content-Security-Policy").rfind("default-src 'self'", 0), 0u);
  auto script = get("/assets/fabric.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_NE(script->body.find("/api/fabric/health"), std::string::npos);
}

TEST_F(WebFabricApi, ChosenNodesAreUpdatedAsAJobWithEachNodesProgressAndTheCliDocument) {
  start(true, images());
  EXPECT_EQ(get_json("/api/fabric/firmware")["update_images"], 1);
  const json started = post_update({{"nodes", {"0x0000000000000300", "0x0000000000000400"}}}, 200);
  ASSERT_TRUE(started.value("ok", false)) << started.dump();
  json job;
  for (int i = 0; i < 400; ++i) {
    job = get_json("/api/jobs/" + started["job"].get<std::string>());
    if (job.value("state", "") != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(job["state"], "done") << job.dump();
  EXPECT_TRUE(job["device"].is_null()) << "a fabric update is no one device's job: " << job.dump();
  EXPECT_EQ(source_->updated, (std::vector<std::uint64_t>{0x300, 0x400}));  // the chosen ones, no others
  ASSERT_EQ(job["detail"]["nodes"].size(), 2u) << job.dump();
  EXPECT_EQ(job["detail"]["nodes"][0]["guid"], "0x0000000000000300");
  EXPECT_EQ(job["detail"]["nodes"][0]["stage"], "updated");
  EXPECT_EQ(job["detail"]["nodes"][1]["done"], 1024);
  EXPECT_EQ(job["result"]["nodes"].size(), 2u);
  EXPECT_EQ(job["result"]["nodes"][1]["status"], "updated");
  EXPECT_NE(audit().find("fabric update: host-2 updated"), std::string::npos) << audit();
  // Unknown or no nodes are refused; the kept inventory was forgotten (asked again).
  const int asked = source_->inventories;
  post_update({{"nodes", {"0x0000000000000999"}}}, 400);
  post_update({{"nodes", json::array()}}, 400);
  (void)get_json("/api/fabric/firmware");
  EXPECT_GT(source_->inventories.load(), asked);
}

TEST_F(WebFabricApi, UpdatesNeedImagesAndAreRefusedReadOnly) {
  start(true);
  post_update({{"nodes", {"0x0000000000000300"}}}, 501);
  web_.stop();
  start(true, images(), /*read_only=*/true);
  post_update({{"nodes", {"0x0000000000000300"}}}, 403);
  EXPECT_TRUE(source_->updated.empty());
  EXPECT_NE(audit().find("refused fabric update"), std::string::npos) << audit();
}

}  // namespace
}  // namespace openflint::test
