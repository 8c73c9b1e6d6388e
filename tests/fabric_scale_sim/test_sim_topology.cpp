// SimTopology: the ibsim topology as the in-process fabric sees it (cabling, LIDs, GUIDs), and
// the subnet agent's NodeInfo/PortInfo of its nodes.
#include <gtest/gtest.h>

#include <array>

#include "fabricsim/SimTopology.h"
#include "fabricsim/SubnetAgent.h"

namespace openflint {
namespace {

constexpr const char* kTwoHosts =
    "vendid=0x02c9\ndevid=0xc738\nSwitch 36 \"leaf-1\"\n[1] \"host-1\"[1]\n[2] \"host-2\"[1]\n\n"
    "vendid=0x02c9\ndevid=0x1003\ncaguid=0x0002c90300001230\nHca 2 \"host-1\"\n[1] \"leaf-1\"[1]\n\n"
    "devid=0x1003\nHca 2 \"host-2\"\n";

TEST(SimTopology, CablesBothEndsNumbersLidsFromTheAttachNodeAndKeepsGivenGuids) {
  auto t = SimTopology::parse(kTwoHosts, "host-2");
  ASSERT_TRUE(t) << t.error().message();
  const auto leaf = t->find("leaf-1");
  const auto h1 = t->find("host-1");
  const auto h2 = t->find("host-2");
  ASSERT_NE(h2, SimTopologyNode::kNone);
  const auto& n = t->nodes();
  EXPECT_TRUE(n[leaf].is_switch);
  EXPECT_EQ(n[h2].peers[1].node, leaf);  // declared on the switch's side only
  EXPECT_EQ(n[leaf].peers[2].node, h2);
  EXPECT_EQ(n[h2].lid(1), 1);  // the attach node first
  EXPECT_EQ(t->by_lid(1).node, h2);
  EXPECT_EQ(n[h1].guid, 0x0002c90300001230ULL);
  EXPECT_NE(n[h2].guid, n[leaf].guid);
  EXPECT_EQ(n[h2].device_id, 0x1003);  // the device id carries over to the next node
  EXPECT_EQ(t->by_lid(t->max_lid() + 1).node, SimTopologyNode::kNone);
}

TEST(SimTopology, RefusesUnknownNodesPortsAndDuplicates) {
  EXPECT_FALSE(SimTopology::parse("Hca 1 \"a\"\n[1] \"b\"[1]\n"));
  EXPECT_FALSE(SimTopology::parse("Hca 1 \"a\"\n[2] \"a\"[1]\n"));
  EXPECT_FALSE(SimTopology::parse("Hca 1 \"a\"\nHca 1 \"a\"\n"));
  EXPECT_FALSE(SimTopology::parse("Hca 1 \"a\"\n", "b"));
  EXPECT_FALSE(SimTopology::parse(""));
}

TEST(SubnetAgent, NodeInfoAndPortInfoDescribeTheCabling) {
  auto t = SimTopology::parse(kTwoHosts, "host-1");
  ASSERT_TRUE(t);
  std::array<std::uint8_t, 64> d{};
  const auto leaf = t->find("leaf-1");
  ASSERT_EQ(answer_subnet_attribute(*t, leaf, 2, 0x11, 0, d), 0);
  EXPECT_EQ(d[2], 2);   // switch
  EXPECT_EQ(d[3], 36);  // ports
  EXPECT_EQ(d[36], 2);  // the port the SMP came in on
  EXPECT_EQ((d[30] << 8) | d[31], 0xc738);
  ASSERT_EQ(answer_subnet_attribute(*t, leaf, 2, 0x15, 3, d), 0);
  EXPECT_EQ(d[32] & 0x0f, 1);  // port 3 is not cabled: Down
  ASSERT_EQ(answer_subnet_attribute(*t, leaf, 2, 0x15, 1, d), 0);
  EXPECT_EQ(d[32] & 0x0f, 4);  // Active
  EXPECT_EQ(answer_subnet_attribute(*t, leaf, 2, 0x15, 37, d), 0x1c);
  EXPECT_EQ(answer_subnet_attribute(*t, t->find("host-1"), 1, 0x12, 0, d), 0x0c);  // no SwitchInfo on a CA
  ASSERT_EQ(answer_subnet_attribute(*t, t->find("host-2"), 1, 0x10, 0, d), 0);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(d.data())), "host-2");
}

}  // namespace
}  // namespace openflint
