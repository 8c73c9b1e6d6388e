// The fat tree ibtopogen builds, and the cabling check on synthetic sweeps: clean, a missing
// cable, a swap, an unexpected system, an extra cable, a missing system — each reported exactly.
#include <gtest/gtest.h>

#include <map>

#include "fabric/CablingCheck.h"
#include "fabric/FatTree.h"
#include "fabric/IbsimTopology.h"
#include "fabric/SystemType.h"

namespace openflint {
namespace {

using Port = Topology::Port;
using Kind = CablingFinding::Kind;

Topology small_tree() {
  FatTreeSpec spec;
  spec.spines = 2;
  spec.leaves = 2;
  spec.hosts_per_leaf = 2;
  auto t = make_fat_tree(spec);
  EXPECT_TRUE(t) << t.error().message();
  return t ? *t : Topology{};
}

// A sweep that finds exactly `wired`'s systems (GUID = position + 1) and cables.
FabricSweep sweep_of(const Topology& wired) {
  FabricSweep s;
  std::map<std::string, std::uint64_t> guid;
  for (const auto& sys : wired.systems()) {
    FabricNode n;
    n.guid = s.nodes.size() + 1;
    n.description = sys.name;
    auto type = find_system_type(sys.type);
    n.device_id = type ? (*type)->pci_device_id : 0;
    guid[sys.name] = n.guid;
    s.nodes.push_back(n);
  }
  for (const auto& c : wired.cables()) s.links.push_back(FabricLink{guid[c.a.system], c.a.port, guid[c.b.system], c.b.port, "4x", "SDR", "Active"});
  return s;
}

TEST(FatTree, WiresHostsAndUplinksAsDocumented) {
  FatTreeSpec spec;  // 2 spines, 4 leaves, 2 hosts per leaf
  auto t = make_fat_tree(spec);
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ(t->systems().size(), 14u);
  EXPECT_EQ(t->cables().size(), 16u);
  EXPECT_EQ(t->peer(Port{"leaf-2", 1}), (Port{"host-3", 1}));
  EXPECT_EQ(t->peer(Port{"leaf-4", 2}), (Port{"host-8", 1}));
  EXPECT_EQ(t->peer(Port{"leaf-3", 4}), (Port{"spine-2", 3}));
  EXPECT_EQ(t->find_system("spine-1")->type, "MT52000");
  EXPECT_EQ(t->find_system("host-1")->type, "MT27700");
}

TEST(FatTree, RefusesWhatDoesNotFit) {
  FatTreeSpec spec;
  spec.leaf_ports = 4;
  spec.hosts_per_leaf = 3;  // 3 hosts + 2 uplinks > 4 ports
  EXPECT_FALSE(make_fat_tree(spec));
  spec = {};
  spec.host_name = "host";  // no %d
  EXPECT_FALSE(make_fat_tree(spec));
  spec = {};
  spec.host_type = "MT52000";  // a switch as a host
  EXPECT_FALSE(make_fat_tree(spec));
  spec = {};
  spec.switch_type = "MT99999";
  EXPECT_EQ(make_fat_tree(spec).error().code(), ErrorCode::InvalidArgument);
}

TEST(FatTree, IbsimTopologyNamesNodesAfterSystems) {
  auto text = ibsim_topology_text(small_tree());
  ASSERT_TRUE(text) << text.error().message();
  EXPECT_NE(text->find("devid=0xcb20\nSwitch 36 \"leaf-1\"\n[1] \"host-1\"[1]\n[2] \"host-2\"[1]\n[3] \"spine-1\"[1]"),
            std::string::npos) << *text;
  EXPECT_NE(text->find("devid=0x1013\nHca 2 \"host-4\"\n[1] \"leaf-2\"[2]\n"), std::string::npos) << *text;
}

TEST(CablingCheck, CleanWhenTheFabricIsAsDeclared) {
  const auto t = small_tree();
  EXPECT_TRUE(check_cabling(t, sweep_of(t), {}).empty());
}

TEST(CablingCheck, WrongTypeWhenTheNodeIsAnotherCatalogDevice) {
  const auto t = small_tree();
  auto sweep = sweep_of(t);
  sweep.nodes[5].device_id = 0x1003;  // host-2: a ConnectX-3 where the file says MT27700
  sweep.nodes[6].device_id = 0x7777;  // host-3: nothing the catalog knows
  const auto f = check_cabling(t, sweep, {});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, Kind::WrongType);
  EXPECT_EQ(f[0].port.system, "host-2");
  EXPECT_EQ(f[0].declared_type, "MT27700");
  EXPECT_EQ(f[0].found_type, "MT27500");
  EXPECT_EQ(f[1].found_type, "device id 0x7777");
  auto words = Topology::parse("SYS-A a\nP1 -> SYS-B b P1\n");  // not catalog words: not checked
  ASSERT_TRUE(words);
  EXPECT_TRUE(check_cabling(*words, sweep_of(*words), {}).empty());
}

TEST(CablingCheck, MissingCable) {
  const auto t = small_tree();
  auto wired = t;
  ASSERT_TRUE(wired.remove_cable(Port{"leaf-2", 4}));  // leaf-2 P4 <-> spine-2 P2
  const auto f = check_cabling(t, sweep_of(wired), {});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::MissingCable);
  EXPECT_EQ(f[0].port, (Port{"leaf-2", 4}));
  EXPECT_EQ(f[0].expected, (Port{"spine-2", 2}));
}

TEST(CablingCheck, SwappedCablesAreMiswiredAtEachPort) {
  const auto t = small_tree();
  auto wired = t;
  ASSERT_TRUE(wired.remove_cable(Port{"host-1", 1}));
  ASSERT_TRUE(wired.remove_cable(Port{"host-3", 1}));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-1", 1}, Port{"host-3", 1}));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-2", 1}, Port{"host-1", 1}));
  const auto f = check_cabling(t, sweep_of(wired), {});
  ASSERT_EQ(f.size(), 4u);
  for (const auto& x : f) EXPECT_EQ(x.kind, Kind::Miswired);
  // sorted by system and port: host-1, host-3, leaf-1, leaf-2
  EXPECT_EQ(f[0].port, (Port{"host-1", 1}));
  EXPECT_EQ(f[0].expected, (Port{"leaf-1", 1}));
  EXPECT_EQ(f[0].found, (Port{"leaf-2", 1}));
  EXPECT_EQ(f[2].port, (Port{"leaf-1", 1}));
  EXPECT_EQ(f[2].expected, (Port{"host-1", 1}));
  EXPECT_EQ(f[2].found, (Port{"host-3", 1}));
}

TEST(CablingCheck, UnexpectedSystemAndExtraCable) {
  const auto t = small_tree();
  auto wired = t;
  ASSERT_TRUE(wired.add_system("MT27700", "intruder"));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-1", 9}, Port{"intruder", 1}));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-1", 10}, Port{"leaf-2", 10}));  // between known systems, undeclared ports
  const auto f = check_cabling(t, sweep_of(wired), {});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, Kind::UnexpectedSystem);
  EXPECT_EQ(f[0].port.system, "intruder");
  EXPECT_EQ(f[0].guid, t.systems().size() + 1);
  EXPECT_EQ(f[0].found, (Port{"leaf-1", 9}));
  EXPECT_EQ(f[1].kind, Kind::ExtraCable);
  EXPECT_EQ(f[1].port, (Port{"leaf-1", 10}));
  EXPECT_EQ(f[1].found, (Port{"leaf-2", 10}));
}

TEST(CablingCheck, ASecondNodeWithADeclaredNameIsUnexpected) {
  const auto t = small_tree();
  auto wired = t;
  ASSERT_TRUE(wired.add_system("MT27700", "twin"));
  ASSERT_TRUE(wired.add_cable(Port{"leaf-2", 9}, Port{"twin", 1}));
  auto sweep = sweep_of(wired);
  sweep.nodes.back().description = "host-1 mlx5_0";  // claims host-1's name
  const auto f = check_cabling(t, sweep, {});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::UnexpectedSystem);
  EXPECT_EQ(f[0].port.system, "0x0000000000000009");  // shown by GUID, not as a second host-1
  EXPECT_EQ(f[0].found, (Port{"leaf-2", 9}));
}

TEST(CablingCheck, MissingSystemAndItsCable) {
  const auto t = small_tree();
  auto sweep = sweep_of(t);
  std::erase_if(sweep.nodes, [](const FabricNode& n) { return n.description == "host-4"; });
  std::erase_if(sweep.links, [](const FabricLink& l) { return l.guid_b == 8; });  // host-4 is the 8th system
  const auto f = check_cabling(t, sweep, {});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, Kind::MissingSystem);
  EXPECT_EQ(f[0].port.system, "host-4");
  EXPECT_EQ(f[1].kind, Kind::MissingCable);
  EXPECT_EQ(f[1].port, (Port{"host-4", 1}));  // the end that sorts first
  EXPECT_EQ(f[1].expected, (Port{"leaf-2", 2}));
}

TEST(CablingCheck, TheHostsMapNamesANodeWhoseDescriptionDoesNot) {
  const auto t = small_tree();
  auto sweep = sweep_of(t);
  sweep.nodes[0].description = "";  // spine-1, nameless
  // Without a name: spine-1 is missing, an unknown node stands there, and the leaves' uplinks
  // to it are miswired (connected to that unknown node).
  const auto f = check_cabling(t, sweep, {});
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].kind, Kind::MissingSystem);
  EXPECT_EQ(f[1].kind, Kind::UnexpectedSystem);
  EXPECT_EQ(f[1].port.system, "0x0000000000000001");
  EXPECT_EQ(f[2].kind, Kind::Miswired);
  EXPECT_EQ(f[2].found, (Port{"0x0000000000000001", 1}));
  SystemNameMap names;
  ASSERT_TRUE(names.add("spine-1", sweep.nodes[0].guid));
  EXPECT_TRUE(check_cabling(t, sweep, names).empty());
}

}  // namespace
}  // namespace openflint
