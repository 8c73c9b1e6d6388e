// LibpciDevice on a plain-file sysfs tree (no FUSE): libpci's errors come back as Results.
#include <gtest/gtest.h>

#include <unistd.h>

#include "mtcr/pci/LibpciDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

class PlainTree : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto dir = tree_.path() / "devices" / address_.to_string();
    std::filesystem::create_directories(dir);
    std::vector<std::uint8_t> config(64, 0);  // a short config file: reads past 64 bytes fail
    config[0] = 0xb3;
    config[1] = 0x15;
    test::write_file(dir / "config", config);
  }
  test::TempDir tree_;
  PciAddress address_{0, 5, 0, 0};
};

TEST_F(PlainTree, ReadsAndWritesTheConfigFile) {
  auto dev = LibpciDevice::open(address_, tree_.path());
  ASSERT_TRUE(dev.has_value()) << dev.error().message();
  EXPECT_EQ(*dev->read32(0), 0x15b3u);
  EXPECT_EQ(*dev->read8(1), 0x15u);
  ASSERT_TRUE(dev->write32(0x10, 0x12345678).has_value());
  EXPECT_EQ(*dev->read32(0x10), 0x12345678u);
  EXPECT_EQ(dev->config_reads(), 3u);
  EXPECT_EQ(dev->config_writes(), 1u);
}

TEST_F(PlainTree, LibpciWarningsAndErrorsAreResults) {
  auto dev = LibpciDevice::open(address_, tree_.path());
  ASSERT_TRUE(dev.has_value()) << dev.error().message();
  auto unaligned = dev->read32(2);  // libpci calls its fatal error(): we unwind instead of exiting
  ASSERT_FALSE(unaligned.has_value());
  EXPECT_EQ(unaligned.error().code(), ErrorCode::Io);
  EXPECT_NE(unaligned.error().message().find("0000:05:00.0"), std::string::npos) << unaligned.error().message();
  EXPECT_EQ(*dev->read32(0), 0x15b3u);  // and the handle still works
}

TEST_F(PlainTree, AConfigFileGoneBeforeTheFirstAccessIsAnIoError) {
  auto dev = LibpciDevice::open(address_, tree_.path());
  ASSERT_TRUE(dev.has_value()) << dev.error().message();
  std::filesystem::remove(tree_.path() / "devices" / address_.to_string() / "config");
  auto gone = dev->read32(0);  // libpci warns "Cannot open ..." and returns all ones
  ASSERT_FALSE(gone.has_value());
  EXPECT_EQ(gone.error().code(), ErrorCode::Io);
  EXPECT_NE(gone.error().message().find("config"), std::string::npos) << gone.error().message();
}

TEST_F(PlainTree, MissingDevicesAndReadOnlyConfigs) {
  EXPECT_EQ(LibpciDevice::open(PciAddress{0, 6, 0, 0}, tree_.path()).error().code(), ErrorCode::NotFound);
  if (::geteuid() == 0) GTEST_SKIP() << "root opens read-only files anyway";
  std::filesystem::permissions(tree_.path() / "devices" / address_.to_string() / "config",
                               std::filesystem::perms::owner_read);
  EXPECT_EQ(LibpciDevice::open(address_, tree_.path()).error().code(), ErrorCode::PermissionDenied);
}

}  // namespace
}  // namespace openflint
