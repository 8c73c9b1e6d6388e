// The IBDM topology file: a good file parses to the declared systems and cables; each kind of
// error names its line; to_text parses back to the same cables; the hosts map and the name rule.
#include <gtest/gtest.h>

#include <fstream>

#include "fabric/ConfigText.h"
#include "fabric/HostsFile.h"
#include "fabric/SystemNameMap.h"
#include "fabric/SystemNaming.h"
#include "fabric/Topology.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

using Port = Topology::Port;

constexpr const char* kGood = R"(# a switch and two hosts
MTS2400 S-1 CFG: b1=mod1,b2=mod2   # trailing comment
P1 -> MT23108 H-1 P1
P2 -> MT23108 H-1 P2
# a comment inside a section does not end it
P24 -> MT23108 H-2 P1

MT23108 H-1
P2 -> MTS2400 S-1 P2
P1 -> MTS2400 S-1 P1
)";

TEST(TopologyFile, ParsesSystemsAndCables) {
  auto t = Topology::parse(kGood);
  ASSERT_TRUE(t) << t.error().message();
  ASSERT_EQ(t->systems().size(), 3u);
  EXPECT_EQ(t->systems()[0].name, "S-1");
  EXPECT_EQ(t->systems()[0].type, "MTS2400");
  EXPECT_EQ(t->systems()[0].cfg, "CFG: b1=mod1,b2=mod2");
  EXPECT_EQ(t->find_system("H-2")->type, "MT23108");
  EXPECT_EQ(t->find_system("H-2")->line, 6);  // first named as a remote system
  ASSERT_EQ(t->cables().size(), 3u);          // H-1's lines repeat S-1's: no new cables
  EXPECT_EQ(t->peer(Port{"S-1", 24}), (Port{"H-2", 1}));
  EXPECT_EQ(t->peer(Port{"H-1", 2}), (Port{"S-1", 2}));
  EXPECT_EQ(t->cables()[2].line, 6);
  EXPECT_FALSE(t->peer(Port{"S-1", 3}));
}

TEST(TopologyFile, TextRoundTrip) {
  auto t = Topology::parse(kGood);
  ASSERT_TRUE(t) << t.error().message();
  const auto text = t->to_text();
  auto back = Topology::parse(text);
  ASSERT_TRUE(back) << back.error().message() << "\n" << text;
  ASSERT_EQ(back->cables().size(), t->cables().size());
  for (const auto& c : t->cables()) EXPECT_EQ(back->peer(c.a), c.b) << text;
  EXPECT_EQ(back->find_system("S-1")->cfg, "CFG: b1=mod1,b2=mod2");
}

struct BadFile {
  const char* text;
  const char* message;  // a part of the error
};

class TopologyFileErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(TopologyFileErrors, NamesTheLine) {
  auto t = Topology::parse(GetParam().text);
  ASSERT_FALSE(t) << GetParam().text;
  EXPECT_EQ(t.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(t.error().message().find(GetParam().message), std::string::npos) << t.error().message();
}

INSTANTIATE_TEST_SUITE_P(
    Each, TopologyFileErrors,
    ::testing::Values(
        // unknown syntax: a header with a stray word, a connection without "->", a bad port name
        BadFile{"# x\nMTS2400 S-1 extra\nP1 -> MT23108 H-1 P1\n", "line 2: unknown syntax"},
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\nP2 MT23108 H-2 P1\n", "line 3: unknown syntax"},
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\nX2 -> MT23108 H-2 P1\n", "line 3: unknown port name"},
        BadFile{"P1 -> MT23108 H-1 P1\n", "line 1: unknown syntax"},
        // a port declared twice in its section
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\n\n\nMTS2400 S-2\nP3 -> MT23108 H-2 P1\nP3 -> MT23108 H-3 P1\n",
                "line 7: port P3 of S-2 declared twice (first on line 6)"},
        // the reverse line contradicts the first: H-1 P1 goes back to S-1 P2, not P1
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\n\nMT23108 H-1\nP1 -> MTS2400 S-1 P2\n",
                "line 5: H-1 P1 -> S-1 P2 contradicts line 2 (H-1 P1 is cabled to S-1 P1)"},
        // another section claims a remote port already taken
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\n\nMTS2400 S-2\nP1 -> MT23108 H-1 P1\n",
                "line 5: S-2 P1 -> H-1 P1 contradicts line 2 (H-1 P1 is cabled to S-1 P1)"},
        // a system named with two types
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\nP2 -> MT25208 H-1 P2\n",
                "line 3: system H-1 has type MT25208 here but MT23108 on line 2"},
        // two sections for one system
        BadFile{"MTS2400 S-1\nP1 -> MT23108 H-1 P1\n\nMTS2400 S-1\nP2 -> MT23108 H-2 P1\n",
                "line 4: system S-1 has a second section (first on line 1)"}));

TEST(HostsMap, ParsesNamesAndGuidsAndNamesTheBadLine) {
  auto m = SystemNameMap::parse_hosts("# hosts\nnode-a 0x0002c90300001234\nnode-b 2c90300005678  # hex without 0x\n\n");
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->size(), 2u);
  EXPECT_EQ(m->guid_of("node-b"), 0x2c90300005678ull);
  EXPECT_FALSE(m->guid_of("node-c"));

  auto bad_guid = SystemNameMap::parse_hosts("a 0x1\nb 0xzz\n");
  ASSERT_FALSE(bad_guid);
  EXPECT_NE(bad_guid.error().message().find("line 2: bad GUID 0xzz"), std::string::npos) << bad_guid.error().message();
  auto twice = SystemNameMap::parse_hosts("a 0x1\nb 0x2\nc 0x1\n");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message().find("line 3"), std::string::npos) << twice.error().message();
  auto syntax = SystemNameMap::parse_hosts("a\n");
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().message().find("line 1: expected 'NAME GUID [WHERE]'"), std::string::npos);
  auto four = SystemNameMap::parse_hosts("a 0x1 mlx5_0 extra\n");
  ASSERT_FALSE(four);
  // One system, two adapters: the same NAME with another WHERE is fine, the same pair is not.
  auto two_hcas = SystemNameMap::parse_hosts("node-7 0x1 mlx5_0\nnode-7 0x2 mlx5_1\n");
  ASSERT_TRUE(two_hcas) << two_hcas.error().message();
  EXPECT_EQ(two_hcas->guid_of("node-7", "mlx5_1"), 0x2u);
  auto same_place = SystemNameMap::parse_hosts("node-7 0x1 mlx5_0\nnode-7 0x2 mlx5_0\n");
  ASSERT_FALSE(same_place);
  EXPECT_NE(same_place.error().message().find("line 2"), std::string::npos);
}

TEST(HostsMap, LocatesTheDeviceWithinTheSystem) {
  SystemNameMap m;
  ASSERT_TRUE(m.add("rack2-node14", 0x10, "mlx5_1"));
  FabricNode mapped;
  mapped.guid = 0x10;
  mapped.description = "n14 mlx5_1";
  const auto a = m.locate(mapped);
  EXPECT_EQ(a.system, "rack2-node14");
  EXPECT_EQ(a.within, "mlx5_1");
  EXPECT_EQ(a.source, SystemLocation::Source::Map);
  FabricNode host;
  host.guid = 0x11;
  host.description = "compute12 mlx5_0";
  const auto b = m.locate(host);
  EXPECT_EQ(b.system, "compute12");
  EXPECT_EQ(b.within, "mlx5_0");
  EXPECT_EQ(b.source, SystemLocation::Source::Description);
  FabricNode sw;  // a modular switch's chip: "MF0;NAME:TYPE/WITHIN"
  sw.guid = 0x12;
  sw.description = "MF0;core-1:CS7500/L05/U1";
  EXPECT_EQ(m.locate(sw).system, "core-1");
  EXPECT_EQ(m.locate(sw).within, "L05/U1");
  sw.description = "MF0;edge-2:MSB7800";
  EXPECT_EQ(m.name_of(sw), "edge-2");
  EXPECT_EQ(m.locate(sw).within, "");
  FabricNode blank;
  EXPECT_EQ(m.locate(blank).source, SystemLocation::Source::None);
}

// The files every fabric tool takes: a parse error names FILE:LINE (a usage error), a missing
// file keeps its read error.
TEST(SystemNamingFiles, ErrorsNameTheFileAndLine) {
  test::TempDir dir;
  const auto names = (dir.path() / "names").string();
  const auto topo = (dir.path() / "fat.topo").string();
  std::ofstream(names) << "# names\nleaf-9 0x0002c90000000009\n";
  std::ofstream(topo) << "MT52000 leaf-9\nP1 -> MT27700 host-1 P1\n";
  auto ok = SystemNaming::load({names, topo});
  ASSERT_TRUE(ok) << ok.error().message();
  FabricNode n;
  n.guid = 0x0002c90000000009ull;
  EXPECT_EQ(ok->name_or_guid(n), "leaf-9");
  EXPECT_EQ(ok->declared_type(n), "MT52000");
  n.guid = 0x5;
  EXPECT_EQ(ok->name_or_guid(n), "0x0000000000000005");
  EXPECT_EQ(ok->declared_type(n), "");

  std::ofstream(names) << "leaf-9 0x9\n\nleaf-9 0x10\n";
  auto bad_map = SystemNaming::load({names, ""});
  ASSERT_FALSE(bad_map);
  EXPECT_EQ(bad_map.error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(bad_map.error().message().rfind(names + ":3: leaf-9", 0), 0u) << bad_map.error().message();
  std::ofstream(topo) << "MT52000 leaf-9\nP1 -> nonsense\n";
  auto bad_topo = SystemNaming::load({"", topo});
  ASSERT_FALSE(bad_topo);
  EXPECT_EQ(bad_topo.error().message().rfind(topo + ":2: ", 0), 0u) << bad_topo.error().message();
  auto missing = SystemNaming::load({(dir.path() / "nothing").string(), ""});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().code(), ErrorCode::InvalidArgument);
}

// Name map, topology and hosts file share one bound on a line: a 100 kB line is refused by
// line number before any parser holds it, as one short message.
TEST(SystemNamingFiles, EveryConfigFileHasTheSameLineBound) {
  test::TempDir dir;
  const auto file = (dir.path() / "f").string();
  const std::string longest(kMaxConfigLineBytes, 'a');
  std::ofstream(file) << "# ok\n" << longest << "\n" << std::string(100'000, 'b') << "\n";
  const std::string expected = file + ":3: line of 100000 bytes, more than the 4096-byte limit";
  auto names = SystemNaming::load({file, ""});
  auto topo = SystemNaming::load({"", file});
  auto hosts = read_hosts_file(file);
  ASSERT_FALSE(names);
  ASSERT_FALSE(topo);
  ASSERT_FALSE(hosts);
  for (const Error& e : {names.error(), topo.error(), hosts.error()}) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(e.message().rfind(expected, 0), 0u) << e.message();
    EXPECT_LT(e.message().size(), 200u);
  }
  // The longest line allowed reaches the parser (which then names what is wrong with it).
  std::ofstream(file) << longest << "\n";
  names = SystemNaming::load({file, ""});
  ASSERT_FALSE(names);
  EXPECT_EQ(names.error().message().find("limit"), std::string::npos) << names.error().message().substr(0, 200);
}

TEST(HostsMap, TheMapWinsOverTheNodeDescription) {
  SystemNameMap m;
  ASSERT_TRUE(m.add("rack3-node7", 0x10));
  FabricNode mapped;
  mapped.guid = 0x10;
  mapped.description = "host-1";
  EXPECT_EQ(m.name_of(mapped), "rack3-node7");
  FabricNode host;
  host.guid = 0x11;
  host.description = "compute12 mlx5_0";  // a host's NodeDescription: hostname and the HCA
  EXPECT_EQ(m.name_of(host), "compute12");
  FabricNode blank;
  blank.guid = 0x12;
  EXPECT_EQ(m.name_of(blank), "");
  EXPECT_FALSE(m.add("other", 0x10));  // a GUID once
}

}  // namespace
}  // namespace openflint
