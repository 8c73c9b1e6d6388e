// FuseSysfs on its own: the resource0 link, the served tree's listing, argument and mount errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <set>

#include "pcisim/FuseSysfs.h"
#include "tests/pci/PciSysfsFixture.h"

namespace openflint {
namespace {

using test::PciSysfsFixture;

std::set<std::string> listing(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST_F(PciSysfsFixture, ListsTheDevicesAndTheirFiles) {
  EXPECT_EQ(listing(root()), (std::set<std::string>{"devices", "drivers"}));
  EXPECT_TRUE(listing(root() / "drivers").empty()) << "no driver is bound to these devices";
  EXPECT_EQ(listing(root() / "devices"), (std::set<std::string>{"0000:03:00.0", "0000:81:00.0"}));
  EXPECT_EQ(listing(root() / "devices" / "0000:03:00.0"),
            (std::set<std::string>{"config", "vendor", "device", "class", "revision", "subsystem_vendor",
                                   "subsystem_device", "irq", "resource", "reset", "reset_method", "vpd"}));
  EXPECT_FALSE(std::filesystem::exists(root() / "devices" / "0000:03:00.1"));
  std::ofstream out(root() / "devices" / "0000:03:00.0" / "vendor");
  EXPECT_FALSE(out.is_open());  // attributes are read-only
}

TEST(FuseSysfs, ServesResource0AsALink) {
  test::TempDir dir;
  auto dev = sim::SimDevice::create("connectx5");
  ASSERT_TRUE(dev.has_value());
  pcisim::ServedDevice served;
  served.address = PciAddress{1, 2, 3, 4};
  served.device = dev->get();
  served.resource0_target = "/dev/shm/openflint-bar-test";
  {
    auto fs = pcisim::FuseSysfs::mount(dir.path(), {served});
    if (!fs && (fs.error().code() == ErrorCode::NotSupported || fs.error().code() == ErrorCode::PermissionDenied)) {
      GTEST_SKIP() << "FUSE mounting is not permitted here: " << fs.error().message();
    }
    ASSERT_TRUE(fs.has_value()) << fs.error().message();
    const auto link = dir.path() / "devices" / "0001:02:03.4" / "resource0";
    ASSERT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(std::filesystem::read_symlink(link), "/dev/shm/openflint-bar-test");
  }
  EXPECT_FALSE(test::is_mounted(dir.path()));
}

TEST(FuseSysfs, RefusesBadArguments) {
  test::TempDir dir;
  auto dev = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(dev.has_value());
  pcisim::ServedDevice a;
  a.device = dev->get();
  auto twice = pcisim::FuseSysfs::mount(dir.path(), {a, a});
  ASSERT_FALSE(twice.has_value());
  if (twice.error().code() == ErrorCode::NotSupported || twice.error().code() == ErrorCode::PermissionDenied) {
    GTEST_SKIP() << twice.error().message();
  }
  EXPECT_EQ(twice.error().code(), ErrorCode::InvalidArgument);
  a.bar0_size = 3 << 20;
  EXPECT_EQ(pcisim::FuseSysfs::mount(dir.path(), {a}).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(pcisim::FuseSysfs::mount(dir.path() / "missing", {}).error().code(), ErrorCode::NotFound);
  EXPECT_FALSE(test::is_mounted(dir.path()));
}

// A client that forgot to close its file must not hang the unmount (the connection is aborted
// after a grace period); its file then fails instead of reaching a dead server.
TEST(FuseSysfs, AFileLeftOpenDoesNotHangTheUnmount) {
  test::TempDir dir;
  auto dev = sim::SimDevice::create("connectx4");
  ASSERT_TRUE(dev.has_value());
  pcisim::ServedDevice served;
  served.device = dev->get();
  auto fs = pcisim::FuseSysfs::mount(dir.path(), {served});
  if (!fs && (fs.error().code() == ErrorCode::NotSupported || fs.error().code() == ErrorCode::PermissionDenied)) {
    GTEST_SKIP() << "FUSE mounting is not permitted here: " << fs.error().message();
  }
  ASSERT_TRUE(fs.has_value()) << fs.error().message();
  const int fd = ::open((dir.path() / "devices" / "0000:00:00.0" / "config").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::uint32_t id = 0;
  ASSERT_EQ(::pread(fd, &id, 4, 0), 4);
  EXPECT_EQ(id & 0xffff, 0x15b3u);
  const auto start = std::chrono::steady_clock::now();
  fs->reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(test::is_mounted(dir.path()));
  EXPECT_LT(::pread(fd, &id, 4, 0), 0);  // ENOTCONN: the connection was aborted
  ::close(fd);
}

// The kernel's reset attribute: "1" resets by the first method reset_method selects; other values
// are refused and it cannot be read. An FLR leaves the device as it runs; a bus reset (a link
// reset) runs the boot ROM of a device where no firmware runs (an image written since the last
// boot starts). reset_method lists "flr bus", takes a subset or "default", refuses unknown ones.
TEST_F(PciSysfsFixture, ResetAttributeResetsByTheSelectedMethod) {
  const auto image = test::sample_image("connectx4-new");
  if (!std::filesystem::exists(image)) GTEST_SKIP() << "sample not built: " << image;
  auto bytes = test::read_file(image);
  bytes.resize(cx4_->flash().chip().size, 0xff);
  ASSERT_TRUE(cx4_->flash().set_contents(bytes));
  ASSERT_TRUE(cx4_->boot_state().recovery);  // written behind the boot ROM's back: not booted yet
  const auto dir = root() / "devices" / "0000:03:00.0";
  auto methods = [&] {
    std::ifstream in(dir / "reset_method");
    std::string line;
    std::getline(in, line);
    return line;
  };
  auto select = [&](std::string_view text) {
    const int fd = ::open((dir / "reset_method").c_str(), O_WRONLY);
    const auto n = fd < 0 ? -1 : ::write(fd, text.data(), text.size());
    if (fd >= 0) ::close(fd);
    return n == static_cast<ssize_t>(text.size());
  };
  EXPECT_EQ(methods(), "flr bus");
  const auto reset = dir / "reset";
  EXPECT_LT(::open(reset.c_str(), O_RDONLY), 0);
  const int fd = ::open(reset.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  EXPECT_LT(::write(fd, "2", 1), 0);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(::write(fd, "1\n", 2), 2);  // an FLR
  EXPECT_TRUE(cx4_->boot_state().recovery);
  EXPECT_FALSE(select("warm\n"));
  EXPECT_EQ(methods(), "flr bus");
  EXPECT_TRUE(select("bus\n"));
  EXPECT_EQ(methods(), "bus");
  EXPECT_EQ(::write(fd, "1\n", 2), 2);  // a bus reset
  ::close(fd);
  EXPECT_FALSE(cx4_->boot_state().recovery);
  EXPECT_EQ(attribute(PciAddress{0, 3, 0, 0}, "device"), "0x1013\n");  // the normal id again
  EXPECT_TRUE(select("default"));
  EXPECT_EQ(methods(), "flr bus");
}

}  // namespace
}  // namespace openflint
