// PciSysfsFixture: a simulated ConnectX-4 (VSEC) and ConnectX-3 (0x58 window) served over FUSE.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pcisim/FuseSysfs.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {

// Whether /proc/self/mountinfo lists `dir` as a mount point.
inline bool is_mounted(const std::filesystem::path& dir) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  const std::string needle = " " + dir.string() + " ";
  while (std::getline(in, line)) {
    if (line.find(needle) != std::string::npos) return true;
  }
  return false;
}

// Skips (GTEST_SKIP) when FUSE mounting is not permitted; unmounts in TearDown and checks the
// mount is gone. Tests must destroy what they opened under the mount before they end.
class PciSysfsFixture : public ::testing::Test {
 protected:
  static constexpr PciAddress kCx4{0, 0x03, 0, 0};
  static constexpr PciAddress kCx3{0, 0x81, 0, 0};

  void SetUp() override {
    cx4_ = make("connectx4");
    cx3_ = make("connectx3");
    auto mounted = pcisim::FuseSysfs::mount(dir_.path(), {served(kCx4, *cx4_, 0x4000000), served(kCx3, *cx3_, 0x100000)});
    if (!mounted && (mounted.error().code() == ErrorCode::NotSupported ||
                     mounted.error().code() == ErrorCode::PermissionDenied)) {
      GTEST_SKIP() << "FUSE mounting is not permitted here (needs /dev/fuse and CAP_SYS_ADMIN): "
                   << mounted.error().message();
    }
    ASSERT_TRUE(mounted.has_value()) << mounted.error().message();
    fs_ = std::move(mounted).value();
  }

  void TearDown() override {
    if (!fs_) return;
    fs_.reset();
    EXPECT_FALSE(is_mounted(dir_.path())) << "the FUSE mount outlived its FuseSysfs";
  }

  static pcisim::ServedDevice served(const PciAddress& a, sim::SimDevice& dev, std::uint64_t bar0_size) {
    pcisim::ServedDevice d;
    d.address = a;
    d.device = &dev;
    d.bar0_size = bar0_size;
    return d;
  }

  static std::unique_ptr<sim::SimDevice> make(const char* model) {
    auto dev = sim::SimDevice::create(model);
    EXPECT_TRUE(dev.has_value()) << dev.error().message();
    return std::move(dev).value();
  }

  [[nodiscard]] const std::filesystem::path& root() const { return dir_.path(); }
  [[nodiscard]] std::string attribute(const PciAddress& a, const std::string& name) const {
    std::ifstream in(root() / "devices" / a.to_string() / name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  TempDir dir_;
  std::unique_ptr<sim::SimDevice> cx4_;
  std::unique_ptr<sim::SimDevice> cx3_;
  std::unique_ptr<pcisim::FuseSysfs> fs_;
};

}  // namespace openflint::test
