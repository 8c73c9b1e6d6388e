// Interop on a simulated ConnectX-3 served over PCI: the Debian mstconfig (its 4th-generation
// commander: tools HCR, QUERY_DEV_CAP, QUERY_DEF_PARAMS, MNVA) and our `mst config` (MNVA through
// the same tools HCR) read the same values, each reads back what the other set, both resets
// return the defaults, and mstconfig's limits from the device capabilities hold.
#include <regex>

#include "tests/config_interop/MstconfigFixture.h"

namespace openflint::test {
namespace {

constexpr std::size_t kConnectX3Parameters = 15;

TEST_F(MstconfigPci, ConnectX3BothToolsReadTheSameConfiguration) {
  if (!start("connectx3", "connectx3-old")) return;
  expect_agreement(kConnectX3Parameters);
  EXPECT_EQ(ours().size(), theirs().size());  // the same parameter list
  const auto e = mstconfig({"-e", "query"});
  EXPECT_TRUE(std::regex_search(e.out, std::regex(" LOG_BAR_SIZE +3 +3\\s*\\n"))) << e.out;  // default via QUERY_DEV_CAP
}

TEST_F(MstconfigPci, ConnectX3ValuesSetByEitherToolAreReadByTheOther) {
  if (!start("connectx3", "connectx3-old")) return;
  const auto s = mstconfig({"-y", "set", "LINK_TYPE_P1=ETH", "SRIOV_EN=1", "NUM_OF_VFS=4", "BOOT_VLAN_P2=100"});
  ASSERT_EQ(s.exit_code, 0) << s.out << s.err;
  auto a = ours();
  EXPECT_EQ(a.at("LINK_TYPE_P1"), "ETH(2)");
  EXPECT_EQ(a.at("LINK_TYPE_P2"), "IB(1)");
  EXPECT_EQ(a.at("SRIOV_EN"), "True(1)");
  EXPECT_EQ(a.at("NUM_OF_VFS"), "4");
  EXPECT_EQ(a.at("BOOT_VLAN_P2"), "100");

  const auto o = mst({"config", "03:00.0", "set", "LINK_TYPE_P2=VPI", "LEGACY_BOOT_PROTOCOL_P1=iSCSI", "-y"});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const auto b = theirs();
  EXPECT_EQ(b.at("LINK_TYPE_P2"), "VPI(3)");
  EXPECT_EQ(b.at("LEGACY_BOOT_PROTOCOL_P1"), "iSCSI(2)");
  EXPECT_EQ(b.at("BOOT_OPTION_ROM_EN_P1"), "True(1)");  // our read-modify-write kept the item's other fields
  expect_agreement(kConnectX3Parameters);

  // mstconfig's limit comes from QUERY_DEV_CAP (max VFs); ours from the catalog: the same bound.
  const auto too_many = mstconfig({"-y", "set", "NUM_OF_VFS=17"});
  EXPECT_NE(too_many.exit_code, 0) << too_many.out;
  EXPECT_NE(mst({"config", "03:00.0", "set", "NUM_OF_VFS=17", "-y"}).exit_code, 0);
  EXPECT_EQ(mstconfig({"-y", "set", "NUM_OF_VFS=16"}).exit_code, 0);

  // Both resets (MNVIA 0x9029) return every parameter to its default.
  ASSERT_EQ(mstconfig({"-y", "reset"}).exit_code, 0);
  a = ours();
  EXPECT_EQ(a.at("LINK_TYPE_P1"), "IB(1)");
  EXPECT_EQ(a.at("NUM_OF_VFS"), "8");
  ASSERT_EQ(mst({"config", "03:00.0", "set", "LINK_TYPE_P1=ETH", "-y"}).exit_code, 0);
  EXPECT_EQ(theirs().at("LINK_TYPE_P1"), "ETH(2)");
  ASSERT_EQ(mst({"config", "03:00.0", "reset", "-y"}).exit_code, 0);
  EXPECT_EQ(theirs().at("LINK_TYPE_P1"), "IB(1)");
}

}  // namespace
}  // namespace openflint::test
