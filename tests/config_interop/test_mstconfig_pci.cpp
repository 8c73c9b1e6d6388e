// Interop: the Debian mstconfig (unmodified, in a mount namespace where `hcasim pci-serve`'s tree
// is /sys/bus/pci) and our `mst config` on the same simulated ConnectX-4: both read the same
// values, a value set by one is read back by the other, a reset by either returns the defaults,
// and a port switched to Ethernet reports Ethernet (mst status) after `mst reset`.
#include <regex>

#include <nlohmann/json.hpp>

#include "tests/config_interop/MstconfigFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

TEST_F(MstconfigPci, BothToolsReadTheSameConfiguration) {
  if (!start()) return;
  expect_agreement();
  EXPECT_EQ(ours().at("LINK_TYPE_P1"), "IB(1)");
}

TEST_F(MstconfigPci, ValuesSetByEitherToolAreReadByTheOther) {
  if (!start()) return;
  const auto s = mstconfig({"-y", "set", "LINK_TYPE_P2=ETH", "NUM_OF_VFS=4", "LEGACY_BOOT_PROTOCOL=ISCSI"});
  ASSERT_EQ(s.exit_code, 0) << s.out << s.err;
  auto a = ours();
  EXPECT_EQ(a.at("LINK_TYPE_P2"), "ETH(2)");
  EXPECT_EQ(a.at("NUM_OF_VFS"), "4");
  EXPECT_EQ(a.at("LEGACY_BOOT_PROTOCOL"), "ISCSI(2)");

  const auto o = mst({"config", "03:00.0", "set", "SRIOV_EN=True", "CQE_COMPRESSION=AGGRESSIVE", "KEEP_IB_LINK_UP_P1=1", "-y"});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const auto b = theirs();
  EXPECT_EQ(b.at("SRIOV_EN"), "True(1)");
  EXPECT_EQ(b.at("CQE_COMPRESSION"), "AGGRESSIVE(1)");
  EXPECT_EQ(b.at("KEEP_IB_LINK_UP_P1"), "True(1)");
  EXPECT_EQ(b.at("NUM_OF_VFS"), "4");  // our read-modify-write kept mstconfig's value in the same item
  expect_agreement();

  // mstconfig's reset (NVIA) and ours both return every parameter to its default.
  ASSERT_EQ(mstconfig({"-y", "reset"}).exit_code, 0);
  a = ours();
  EXPECT_EQ(a.at("SRIOV_EN"), "False(0)");
  EXPECT_EQ(a.at("LINK_TYPE_P2"), "IB(1)");
  ASSERT_EQ(mst({"config", "03:00.0", "set", "NUM_OF_VFS=2", "-y"}).exit_code, 0);
  ASSERT_EQ(mst({"config", "03:00.0", "reset", "-y"}).exit_code, 0);
  EXPECT_EQ(theirs().at("NUM_OF_VFS"), "8");
}

TEST_F(MstconfigPci, APortSwitchedToEthernetReportsEthernetAfterAReset) {
  if (!start()) return;
  auto protocols = [&] {
    const auto r = mst({"--json", "status"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out)["pci"][0]["port_protocols"];
  };
  EXPECT_EQ(protocols(), json::array({"InfiniBand", "InfiniBand"}));
  ASSERT_EQ(mstconfig({"-y", "set", "LINK_TYPE_P1=ETH"}).exit_code, 0);
  EXPECT_EQ(protocols(), json::array({"InfiniBand", "InfiniBand"}));  // not before the reset
  const auto e = mstconfig({"-e", "query", "LINK_TYPE_P1"});
  EXPECT_TRUE(std::regex_search(e.out, std::regex("\\* +LINK_TYPE_P1 +IB\\(1\\) +IB\\(1\\) +ETH\\(2\\)"))) << e.out;
  const auto r = mst({"reset", "03:00.0", "-y"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(protocols(), json::array({"Ethernet", "InfiniBand"}));
  const auto v = mst({"status", "-v"});
  EXPECT_NE(v.out.find("ports: 1 Ethernet, 2 InfiniBand (since the last boot)"), std::string::npos) << v.out;
  // mstconfig sees the reset too: current is now ETH.
  const auto after = mstconfig({"-e", "query", "LINK_TYPE_P1"});
  EXPECT_TRUE(std::regex_search(after.out, std::regex("\\* +LINK_TYPE_P1 +IB\\(1\\) +ETH\\(2\\) +ETH\\(2\\)"))) << after.out;
}

}  // namespace
}  // namespace openflint::test
