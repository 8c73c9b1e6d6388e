// How often the running firmware (MGIR through the ICMD mailbox) is read over PCI: not at open,
// once per opened Device until a reset, once per function by the `mst status` listing.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <fstream>

#include "devices/FlashGatewayInfo.h"
#include "fwops/Device.h"
#include "fwops/access/DeviceListing.h"
#include "tests/pci/PciSysfsFixture.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

// A ConnectX-4 served with config space (VSEC, ICMD) and a plain-file BAR0 that answers the hw id.
class RunningFirmwareReads : public ::testing::Test {
 protected:
  static constexpr PciAddress kCx4{0, 0x03, 0, 0};
  static constexpr std::uint64_t kBarSize = 0x1000000;

  void SetUp() override {
    ::setenv("OPENFLINT_RUN_DIR", (run_.path() / "run").c_str(), 1);
    auto dev = sim::SimDevice::create("connectx4");
    ASSERT_TRUE(dev.has_value()) << dev.error().message();
    cx4_ = std::move(dev).value();
    const fs::path bar = run_.path() / "bar0";
    { std::ofstream create(bar); }
    fs::resize_file(bar, kBarSize);
    auto word = cx4_->read32(kHwIdAddr);
    ASSERT_TRUE(word.has_value());
    std::fstream f(bar, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(kHwIdAddr);
    const char bytes[4] = {static_cast<char>(*word >> 24), static_cast<char>(*word >> 16),
                           static_cast<char>(*word >> 8), static_cast<char>(*word)};  // BAR0 is big-endian
    f.write(bytes, 4);
    f.close();
    pcisim::ServedDevice served;
    served.address = kCx4;
    served.device = cx4_.get();
    served.bar0_size = kBarSize;
    served.resource0_target = bar;
    auto mounted = pcisim::FuseSysfs::mount(dir_.path(), {served});
    if (!mounted && (mounted.error().code() == ErrorCode::NotSupported ||
                     mounted.error().code() == ErrorCode::PermissionDenied)) {
      GTEST_SKIP() << "FUSE mounting is not permitted here: " << mounted.error().message();
    }
    ASSERT_TRUE(mounted.has_value()) << mounted.error().message();
    fs_ = std::move(mounted).value();
  }

  void TearDown() override { fs_.reset(); }

  [[nodiscard]] Result<Device> open(const std::string& name) const {
    DeviceOpenOptions options;
    options.sysfs_root = dir_.path();
    return open_pci_device(name, options);
  }

  test::TempDir run_;
  test::TempDir dir_;
  std::unique_ptr<sim::SimDevice> cx4_;
  std::unique_ptr<pcisim::FuseSysfs> fs_;
};

TEST_F(RunningFirmwareReads, NotAtOpenThenOncePerDeviceUntilAReset) {
  auto device = open("pciconf-" + kCx4.to_string());
  ASSERT_TRUE(device.has_value()) << device.error().message();
  EXPECT_EQ(fs_->icmd_commands(0), 0u) << "opening (as a burn or a register read does) asked MGIR";
  const auto first = device->running_firmware();
  ASSERT_TRUE(first.has_value()) << "the VSEC device answers MGIR";
  EXPECT_EQ(fs_->icmd_commands(0), 1u);
  const auto again = device->running_firmware();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->recovery, first->recovery);
  EXPECT_EQ(fs_->icmd_commands(0), 1u) << "the answer is kept";
  device->invalidate_running_firmware();
  (void)device->running_firmware();
  EXPECT_EQ(fs_->icmd_commands(0), 2u) << "invalidated: asked again";
  ASSERT_TRUE(device->reset().has_value());
  EXPECT_EQ(fs_->icmd_commands(0), 2u) << "a reset does not ask by itself";
  (void)device->running_firmware();
  EXPECT_EQ(fs_->icmd_commands(0), 3u) << "after a reset the running firmware is read again";
}

TEST_F(RunningFirmwareReads, TheListingOpensEachFunctionOnceAndAsksMgirOnce) {
  auto listed = list_pci_devices(dir_.path());
  ASSERT_TRUE(listed.has_value()) << listed.error().message();
  ASSERT_EQ(listed->size(), 1u);
  const PciDeviceStatus& s = listed->front();
  EXPECT_TRUE(s.config.works) << s.config.reason;
  EXPECT_TRUE(s.bar.works) << s.bar.reason;
  EXPECT_EQ(s.bar.hw_id_word, s.config.hw_id_word);
  EXPECT_TRUE(s.running.has_value());
  EXPECT_EQ(fs_->icmd_commands(0), 1u);
  RecordProperty("gateway_transactions", std::to_string(fs_->gateway_transactions(0)));
}

}  // namespace
}  // namespace openflint
