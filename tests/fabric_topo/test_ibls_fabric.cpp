// ibls on ibsim fabrics that ibtopogen's model describes: the listing by system name, the filters,
// and -e against the topology file — clean (exit 0), then a removed cable, two swapped cables
// and an extra node, each reported exactly with exit 1.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <map>
#include <set>

#include "fabric/FatTree.h"
#include "fabric/IbsimTopology.h"
#include "fabricsim/SimFabric.h"
#include "tests/support/IbsimFabric.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;
using Port = Topology::Port;

class IblsFabric : public IbsimFabricTest {
 protected:
  void SetUp() override {
    IbsimFabricTest::SetUp();
    if (IsSkipped()) return;
    auto t = make_fat_tree(FatTreeSpec{});  // 2 spines, 4 leaves, 8 hosts
    ASSERT_TRUE(t) << t.error().message();
    declared_ = *t;
    std::ofstream(topo_dir_ / "fat.topo") << declared_.to_text();
  }

  // Brings up ibsim with `wired` (the declared tree, maybe edited); clients attach as host-1.
  void up(const Topology& wired, const std::string& from = "", const std::string& to = "") {
    auto text = ibsim_topology_text(wired);
    ASSERT_TRUE(text) << text.error().message();
    if (!from.empty()) {  // an edit of the ibsim file itself
      const auto at = text->find(from);
      ASSERT_NE(at, std::string::npos) << *text;
      text->replace(at, from.size(), to);
    }
    SimFabric::Options o;
    o.topology = *text;
    o.local_node = "host-1";
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_NO_FATAL_FAILURE(start_fabric(o));
    RecordProperty("fabric_up_ms", static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                        std::chrono::steady_clock::now() - t0).count()));
  }

  CapturedRun ibls(std::vector<std::string> args, const std::string& tool = "ibls") {
    std::vector<std::string> argv{bin(tool).string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_on("host-1", argv, 60000);
  }

  json check(int expected_rc) {
    const auto r = ibls({"-t", (topo_dir_ / "fat.topo").string(), "-e", "--json"});
    EXPECT_EQ(r.exit_code, expected_rc) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j.is_discarded() ? json{} : j;
  }

  static json finding(const std::string& kind, const std::string& system, const std::string& port,
                      const std::string& expected_sys, const std::string& expected_port, const std::string& found_sys,
                      const std::string& found_port) {
    json j{{"kind", kind}, {"system", system}};
    if (!port.empty()) j["port"] = port;
    j["expected"] = expected_sys.empty() ? json(nullptr) : json{{"system", expected_sys}, {"port", expected_port}};
    j["found"] = found_sys.empty() ? json(nullptr) : json{{"system", found_sys}, {"port", found_port}};
    return j;
  }

  // The findings without the free-text and GUID fields, to compare whole.
  static json bare(json findings) {
    for (auto& f : findings) {
      f.erase("text");
      f.erase("guid");
    }
    return findings;
  }

  TempDir topo_dir_;
  Topology declared_;
};

TEST_F(IblsFabric, ListsSystemsAndCablesByNameAndTheCheckIsClean) {
  up(declared_);
  const auto t0 = std::chrono::steady_clock::now();
  const json j = check(0);
  RecordProperty("ibls_check_ms", static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                       std::chrono::steady_clock::now() - t0).count()));
  ASSERT_TRUE(j.contains("systems")) << j.dump(2);
  EXPECT_TRUE(j["check"]["clean"].get<bool>()) << j.dump(2);
  EXPECT_EQ(j["check"]["findings"].size(), 0u);
  std::set<std::string> names;
  for (const auto& s : j["systems"]) names.insert(s["name"].get<std::string>());
  std::set<std::string> declared;
  for (const auto& s : declared_.systems()) declared.insert(s.name);
  EXPECT_EQ(names, declared);
  ASSERT_EQ(j["cables"].size(), 16u);
  bool seen = false;
  for (const auto& c : j["cables"]) {
    if (c["a"]["system"] == "host-3") {
      EXPECT_EQ(c["b"], (json{{"system", "leaf-2"}, {"port", "P1"}}));
      EXPECT_EQ(c["width"], "4x");
      EXPECT_EQ(c["state"], "Active");
      seen = true;
    }
  }
  EXPECT_TRUE(seen) << j["cables"].dump(2);
  for (const auto& s : j["systems"]) {
    if (s["name"] == "leaf-1") {
      EXPECT_EQ(s["type"], "MT52000");
      EXPECT_EQ(s["device"], "Switch-IB");
      EXPECT_EQ(s["node_type"], "switch");
      EXPECT_NE(s["lid"], 0);
    }
  }

  // Text form, and the filters: -n a system, -g a GUID, a name nobody has.
  const auto text = ibls({"-t", (topo_dir_ / "fat.topo").string(), "-e"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Topology check: the cabling matches the topology file"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("host-3 P1"), std::string::npos) << text.out;
  const auto leaf = json::parse(ibls({"-n", "leaf-2", "--json", "--no-fw"}).out);
  ASSERT_EQ(leaf["systems"].size(), 1u);
  EXPECT_EQ(leaf["cables"].size(), 4u);  // two hosts, two spines
  std::string host5_guid;
  for (const auto& s : j["systems"]) {
    if (s["name"] == "host-5") host5_guid = s["guid"];
  }
  const auto by_guid = json::parse(ibls({"-g", host5_guid, "--json", "--no-fw"}).out);
  ASSERT_EQ(by_guid["systems"].size(), 1u);
  EXPECT_EQ(by_guid["systems"][0]["name"], "host-5");
  EXPECT_EQ(by_guid["cables"].size(), 1u);
  EXPECT_EQ(ibls({"-n", "nobody", "--no-fw"}).exit_code, 4);
  EXPECT_EQ(ibls({"-e"}).exit_code, 2);  // -e needs -t
}

TEST_F(IblsFabric, RemovedCableIsMissing) {
  auto wired = declared_;
  ASSERT_TRUE(wired.remove_cable(Port{"leaf-2", 3}));  // leaf-2 P3 <-> spine-1 P2
  up(wired);
  const json j = check(1);
  EXPECT_EQ(bare(j["check"]["findings"]),
            json::array({finding("missing-cable", "leaf-2", "P3", "spine-1", "P2", "", "")}))
      << j["check"].dump(2);
}

TEST_F(IblsFabric, SwappedCablesAreMiswired) {
  auto wired = declared_;  // host-3 (leaf-2 P1) and host-5 (leaf-3 P1) trade places
  ASSERT_TRUE(wired.remove_cable(Port{"host-3", 1}));
  ASSERT_TRUE(wired.remove_cable(Port{"host-5", 1}));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-2", 1}, Port{"host-5", 1}));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-3", 1}, Port{"host-3", 1}));
  up(wired);
  const json j = check(1);
  EXPECT_EQ(bare(j["check"]["findings"]),
            json::array({finding("miswired", "host-3", "P1", "leaf-2", "P1", "leaf-3", "P1"),
                         finding("miswired", "host-5", "P1", "leaf-3", "P1", "leaf-2", "P1"),
                         finding("miswired", "leaf-2", "P1", "host-3", "P1", "host-5", "P1"),
                         finding("miswired", "leaf-3", "P1", "host-5", "P1", "host-3", "P1")}))
      << j["check"].dump(2);
}

TEST_F(IblsFabric, ExtraNodeIsUnexpected) {
  auto wired = declared_;
  ASSERT_TRUE(wired.add_system("MT27700", "intruder"));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-4", 5}, Port{"intruder", 1}));
  up(wired);
  const json j = check(1);
  EXPECT_EQ(bare(j["check"]["findings"]),
            json::array({finding("unexpected-system", "intruder", "", "", "", "leaf-4", "P5")}))
      << j["check"].dump(2);
  ASSERT_EQ(j["check"]["findings"].size(), 1u);
  EXPECT_TRUE(j["check"]["findings"][0].contains("guid"));
  EXPECT_EQ(j["systems"].size(), 15u);
}

TEST_F(IblsFabric, AnotherAdapterModelIsTheWrongType) {
  up(declared_, "devid=0x1013\nHca 2 \"host-6\"", "devid=0x1003\nHca 2 \"host-6\"");  // a ConnectX-3
  const json j = check(1);
  ASSERT_EQ(j["check"]["findings"].size(), 1u) << j["check"].dump(2);
  const auto& f = j["check"]["findings"][0];
  EXPECT_EQ(f["kind"], "wrong-type");
  EXPECT_EQ(f["system"], "host-6");
  EXPECT_EQ(f["declared_type"], "MT27700");
  EXPECT_EQ(f["found_type"], "MT27500");
}

// -i DEVICE keeps the nodes of one device (name, part number or device id, any case) and their
// cables; keys choose the sections; -C,--ca is the local CA (-i was, and a CA name given to -i
// says so); the name map is --names, and --hosts is a hosts file (a name map there is refused).
TEST_F(IblsFabric, DeviceFilterKeysAndOptionSpellings) {
  up(declared_, "devid=0x1013\nHca 2 \"host-6\"", "devid=0x1003\nHca 2 \"host-6\"");  // a ConnectX-3
  const auto listed = [&](std::vector<std::string> args) {
    args.push_back("--json");
    args.push_back("--no-fw");
    const auto r = ibls(args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    auto j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j;
  };
  const json cx3 = listed({"-i", "ConnectX-3"});
  ASSERT_EQ(cx3["systems"].size(), 1u) << cx3.dump(2);
  EXPECT_EQ(cx3["systems"][0]["name"], "host-6");
  EXPECT_EQ(cx3["cables"].size(), 1u);
  std::set<std::string> cx4;
  const json by_id = listed({"-i", "mt4115"});
  for (const auto& s : by_id["systems"]) cx4.insert(s["name"].get<std::string>());
  EXPECT_EQ(cx4, (std::set<std::string>{"host-1", "host-2", "host-3", "host-4", "host-5", "host-7", "host-8"}));
  EXPECT_EQ(listed({"--device", "mt27700"})["systems"].size(), 7u) << "the part number";
  EXPECT_EQ(listed({"-i", "4099"})["systems"].size(), 1u) << "the device id alone (ConnectX-3: 0x1003)";
  const json switches = listed({"-i", "switch-ib", "devices"});
  EXPECT_FALSE(switches.contains("systems"));
  EXPECT_FALSE(switches.contains("cables"));
  ASSERT_EQ(switches["devices"].size(), 6u) << switches.dump(2);
  for (const auto& d : switches["devices"]) {
    EXPECT_EQ(d["node_type"], "switch");
    EXPECT_EQ(d["device"], "Switch-IB");
    EXPECT_NE(d["lid"], 0);
  }
  const auto not_a_device = ibls({"-i", "mlx5_0", "--no-fw"});
  EXPECT_EQ(not_a_device.exit_code, 4) << not_a_device.out << not_a_device.err;
  EXPECT_NE(not_a_device.err.find("the local CA is -C,--ca"), std::string::npos) << not_a_device.err;

  // Keys: systems (names and types only), cables, firmware; comma-separated or repeated.
  const json sys = listed({"systems,cables"});
  ASSERT_EQ(sys["systems"].size(), 14u);
  EXPECT_EQ(sys["cables"].size(), 16u);
  EXPECT_FALSE(sys.contains("devices"));
  for (const auto& s : sys["systems"]) EXPECT_EQ(s.size(), 2u) << s.dump() << ": name and type";
  const auto fw = ibls({"firmware", "--json"});
  ASSERT_EQ(fw.exit_code, 0) << fw.out << fw.err;
  const json fwj = json::parse(fw.out);
  ASSERT_EQ(fwj["firmware"].size(), 14u);
  for (const auto& f : fwj["firmware"]) EXPECT_TRUE(f["path"].is_null()) << f.dump() << ": no responders, no facts";
  const auto text = ibls({"devices", "cables", "--no-fw"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.find("Systems ("), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Devices (14):"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Cables (16):"), std::string::npos) << text.out;
  const auto classic = ibls({"--no-fw"});
  EXPECT_NE(classic.out.find("Systems (14):"), std::string::npos) << classic.out;
  EXPECT_NE(classic.out.find("Cables (16):"), std::string::npos) << classic.out;
  EXPECT_EQ(ibls({"ports"}).exit_code, 2);
  EXPECT_EQ(ibls({"firmware", "--no-fw"}).exit_code, 2);

  // -C,--ca is the local CA: one that does not exist fails the sweep.
  EXPECT_NE(ibls({"-C", "nosuchca0", "--no-fw"}).exit_code, 0);
  EXPECT_NE(ibls({"--ca", "nosuchca0", "--no-fw"}).exit_code, 0);
  // The name map as --hosts: refused with the hint; as --names it names.
  std::ofstream(topo_dir_ / "names") << "renamed-6 " << cx3["systems"][0]["guid"].get<std::string>() << "\n";
  const auto as_hosts = ibls({"--hosts", (topo_dir_ / "names").string(), "--no-fw"});
  EXPECT_EQ(as_hosts.exit_code, 2) << as_hosts.out << as_hosts.err;
  EXPECT_NE(as_hosts.err.find("names:1: "), std::string::npos) << as_hosts.err;
  EXPECT_NE(as_hosts.err.find("the name map is --names now"), std::string::npos) << as_hosts.err;
  EXPECT_EQ(listed({"--names", (topo_dir_ / "names").string(), "-i", "connectx-3"})["systems"][0]["name"], "renamed-6");
}

// ibfwmgr takes the same name options as ibls: the map's names (and WHERE) for the nodes it
// lists, the NodeDescription for the others, the topology's types; a bad map exits 2 at FILE:LINE.
TEST_F(IblsFabric, IbfwmgrNamesSystemsAsTheNameMapSays) {
  up(declared_);
  std::map<std::string, std::string> guid;  // system name -> GUID, as ibls lists them
  const auto listed = json::parse(ibls({"--json", "--no-fw"}).out);
  for (const auto& s : listed["systems"]) guid[s["name"]] = s["guid"];
  ASSERT_EQ(guid.size(), 14u);
  const auto names = (topo_dir_ / "names").string();
  std::ofstream(names) << "# lab names\nrack7-sw " << guid["leaf-2"] << "\nrack2-node14 " << guid["host-5"]
                       << " mlx5_1  # second HCA\n";
  const auto topo = (topo_dir_ / "fat.topo").string();
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = ibls({"list", "--json", "--names", names, "-t", topo}, "ibfwmgr");
  RecordProperty("ibfwmgr_list_ms", static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                         std::chrono::steady_clock::now() - t0).count()));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = json::parse(r.out);
  std::map<std::string, json> by_guid;
  for (const auto& n : j["nodes"]) by_guid[n["guid"]] = n["system"];
  ASSERT_EQ(by_guid.size(), 14u) << j.dump(2);
  EXPECT_EQ(by_guid[guid["leaf-2"]],
            (json{{"name", "rack7-sw"}, {"within", nullptr}, {"source", "names"}, {"type", nullptr}}));
  EXPECT_EQ(by_guid[guid["host-5"]],
            (json{{"name", "rack2-node14"}, {"within", "mlx5_1"}, {"source", "names"}, {"type", nullptr}}));
  // Not in the map: the NodeDescription (ibsim's node name), typed by the topology file.
  EXPECT_EQ(by_guid[guid["leaf-1"]],
            (json{{"name", "leaf-1"}, {"within", nullptr}, {"source", "description"}, {"type", "MT52000"}}));
  EXPECT_EQ(by_guid[guid["host-6"]]["type"], "MT27700");

  const auto text = ibls({"list", "--names", names}, "ibfwmgr");
  ASSERT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_EQ(text.out.rfind("SYSTEM ", 0), 0u) << text.out;
  EXPECT_NE(text.out.find("\nrack2-node14 mlx5_1 "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nrack7-sw "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nspine-2 "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("\nleaf-2 "), std::string::npos) << text.out;  // named by the map instead

  // The same options on update (a dry run: nothing is written); then a map that does not parse.
  const auto empty_dir = topo_dir_ / "images";
  std::filesystem::create_directories(empty_dir);
  const auto dry = ibls({"update", "--images", empty_dir.string(), "--dry-run", "--json", "--names", names}, "ibfwmgr");
  const auto d = json::parse(dry.out, nullptr, false);
  ASSERT_FALSE(d.is_discarded()) << dry.out << dry.err;
  std::set<std::string> updated_names;
  for (const auto& n : d["nodes"]) updated_names.insert(n["system"]["name"].get<std::string>());
  EXPECT_TRUE(updated_names.count("rack2-node14") && updated_names.count("host-1")) << d.dump(2);
  std::ofstream(names) << "ok-1 0x1\nbroken 0xzz\n";
  for (const auto& args : {std::vector<std::string>{"list", "--names", names},
                           std::vector<std::string>{"update", "--names", names, "--images", empty_dir.string(), "-y"}}) {
    const auto bad = ibls(args, "ibfwmgr");
    EXPECT_EQ(bad.exit_code, 2) << args[0] << bad.out << bad.err;
    EXPECT_NE(bad.err.find(names + ":2: bad GUID 0xzz"), std::string::npos) << bad.err;
  }
}

}  // namespace
}  // namespace openflint::test
