// Unmodified pciutils against a FuseSysfs tree: lspci lists the simulated devices, setpci drives
// the VSEC and the 0x58 window by hand.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "sim/PciConfigSpace.h"
#include "tests/pci/PciSysfsFixture.h"

namespace openflint {
namespace {

class Pciutils : public test::PciSysfsFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"lspci", "setpci"}) {
      if (!test::have_program(tool)) GTEST_SKIP() << tool << " is not installed (pciutils)";
    }
    PciSysfsFixture::SetUp();
  }
  std::vector<std::string> with_tree(const std::string& tool, std::vector<std::string> args) const {
    std::vector<std::string> argv{tool, "-A", "linux-sysfs", "-O", "sysfs.path=" + root().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  // setpci's output: one hex value per read, one per line.
  static std::vector<std::uint32_t> values(const std::string& out) {
    std::vector<std::uint32_t> v;
    std::istringstream in(out);
    std::string word;
    while (in >> word) v.push_back(static_cast<std::uint32_t>(std::stoul(word, nullptr, 16)));
    return v;
  }
  static std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%x", v);
    return buf;
  }
};

TEST_F(Pciutils, LspciListsTheSimulatedDevices) {
  const auto r = test::run_command(with_tree("lspci", {"-nn", "-d", "15b3:"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  char cx4[16], cx3[16];
  std::snprintf(cx4, sizeof cx4, "[15b3:%04x]", cx4_->pci_device_id());
  std::snprintf(cx3, sizeof cx3, "[15b3:%04x]", cx3_->pci_device_id());
  EXPECT_NE(r.out.find("03:00.0 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("81:00.0 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(cx4), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(cx3), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[0200]"), std::string::npos) << r.out;  // Ethernet controller class
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2) << r.out;
}

TEST_F(Pciutils, LspciVerboseShowsTheCapabilities) {
  const auto r = test::run_command(with_tree("lspci", {"-vv", "-s", "03:00.0"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Capabilities: [c0] Vendor Specific"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Capabilities: [60] Express"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Region 0: Memory at e0000000 (64-bit, prefetchable) [size=64M]"), std::string::npos)
      << r.out;
}

TEST_F(Pciutils, SetpciReadsTheHwIdThroughTheVsec) {
  const std::uint32_t base = sim::PciConfigSpace::kVsecOffset;
  auto reg = [&](std::uint32_t offset) { return hex(base + offset) + ".L"; };
  // Take the semaphore with ticket 5, select CR_SPACE, issue a read of 0xf0014, read ADDR and
  // DATA back, release.
  const auto r = test::run_command(with_tree(
      "setpci", {"-s", "03:00.0", reg(kVsecSemaphore) + "=5", reg(kVsecSemaphore), reg(kVsecCtrl) + "=2",
                 reg(kVsecCtrl), reg(kVsecAddr) + "=" + hex(kHwIdAddr), reg(kVsecAddr), reg(kVsecData),
                 reg(kVsecSemaphore) + "=0"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto v = values(r.out);
  ASSERT_EQ(v.size(), 4u) << r.out;
  EXPECT_EQ(v[0], 5u);                            // the semaphore is ours
  EXPECT_EQ(v[1] & 0xffff, 2u);                   // CR_SPACE echoes...
  EXPECT_NE(v[1] >> 29, 0u);                      // ...with a nonzero status
  EXPECT_EQ(v[2], kHwIdAddr | kVsecFlagBit);      // the read completed
  EXPECT_EQ(v[3] & 0xffff, 0x209u);               // ConnectX-4
  EXPECT_EQ(fs_->gateway_transactions(0), 1u);
}

TEST_F(Pciutils, SetpciReadsTheHwIdThroughTheWindow) {
  const auto r = test::run_command(
      with_tree("setpci", {"-s", "81:00.0", hex(kPciWindowAddrOffset) + ".L=" + hex(kHwIdAddr),
                           hex(kPciWindowDataOffset) + ".L"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto v = values(r.out);
  ASSERT_EQ(v.size(), 1u) << r.out;
  EXPECT_EQ(v[0] & 0xffff, 0x1f5u);  // ConnectX-3
}

}  // namespace
}  // namespace openflint
