// Interop: the board VPD of a served simulated ConnectX-4 read by the Debian mstvpd and lspci -vv
// (through the sysfs vpd file, as without the mst kernel driver) and by our mst vpd, through the
// file and through the VPD capability in config space: all the same.
#include "mtcr/pci/PciVpd.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

class MstvpdPci : public PciServeFixture {};

TEST_F(MstvpdPci, MstvpdLspciAndOursReadTheSameVpd) {
  for (const char* tool : {"mstvpd", "lspci", "unshare", "mount", "timeout"})
    if (!have_program(tool)) GTEST_SKIP() << tool << " is not installed; VPD interop not checked";
  if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot bind-mount over /sys/bus/pci in a mount namespace";
  const auto dev = create_device("cx4", "connectx4", sample_image("connectx4-old"));
  if (!serve({dev})) return;
  if (const std::string problem = pci_namespace_problem(); !problem.empty()) GTEST_SKIP() << problem;

  const auto ours = run_command({bin("mst").string(), "vpd", "03:00.0"}, tool_env());
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_NE(ours.out.find("\nSN:      SIM"), std::string::npos) << ours.out;
  const auto theirs = in_pci_namespace({"mstvpd", "03:00.0"}, 60);
  ASSERT_EQ(theirs.exit_code, 0) << theirs.out << theirs.err;
  EXPECT_EQ(theirs.out, ours.out);  // same keywords, same order, same format
  const auto one = in_pci_namespace({"mstvpd", "03:00.0", "SN"}, 60);
  EXPECT_EQ(one.out, ours.out.substr(ours.out.find("SN:"), ours.out.find('\n', ours.out.find("SN:")) - ours.out.find("SN:") + 1));

  const auto lspci = run_command({"lspci", "-O", "sysfs.path=" + sysfs_.string(), "-s", "03:00.0", "-vv"});
  ASSERT_EQ(lspci.exit_code, 0) << lspci.err;
  EXPECT_NE(lspci.out.find("Product Name: ConnectX-4 simulated adapter card"), std::string::npos) << lspci.out;
  EXPECT_NE(lspci.out.find("[PN] Part number: MT27700-SIM"), std::string::npos) << lspci.out;
  EXPECT_NE(lspci.out.find("[RV] Reserved: checksum good"), std::string::npos) << lspci.out;

  // The capability path (config space, 4 bytes per cycle) reads what the file holds.
  const auto function = sysfs_ / "devices" / "0000:03:00.0";
  auto through_file = read_pci_vpd(function);
  auto through_cap = read_pci_vpd_through_capability(function);
  ASSERT_TRUE(through_file) << through_file.error().message();
  ASSERT_TRUE(through_cap) << through_cap.error().message();
  EXPECT_EQ(*through_cap, *through_file);
}

}  // namespace
}  // namespace openflint::test
