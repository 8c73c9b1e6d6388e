// The IBDM topology file: a good file parses to the declared systems and cables; each kind of
// error names its line; to_text parses back to the same cables; the hosts map and the name rule.
#include <gtest/gtest.h>

#include "fabric/SystemNameMap.h"
#include "fabric/Topology.h"

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
  EXPECT_NE(syntax.error().message().find("line 1: expected 'NAME GUID'"), std::string::npos);
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
