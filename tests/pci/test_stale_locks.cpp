// Locks and semaphores a killed tool leaves held over PCI: the next opener names them and the
// remedy, the flash path is refused rather than taken through the gateway, and reclaiming frees
// each one without needing any of them (fwops/access/StaleLocks.h).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "fwops/burn/ComponentUpdater.h"
#include "fwops/DeviceBurn.h"
#include "fwops/burn/FlashPath.h"
#include "fwops/DeviceFlash.h"
#include "fwops/access/StaleLocks.h"
#include "mtcr/pci/IcmdRegisterPort.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "pcisim/FuseSysfs.h"
#include "sim/PciConfigSpace.h"
#include "tests/pci/PciSysfsFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint {
namespace {

using Clock = std::chrono::steady_clock;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A ConnectX-4 whose firmware owns the flash (an image built with MCC runs) and a ConnectX-3
// running the sample, served over FUSE (config space only: no BAR file).
class StaleLocks : public ::testing::Test {
 protected:
  static constexpr PciAddress kCx4{0, 0x03, 0, 0};
  static constexpr PciAddress kCx3{0, 0x81, 0, 0};

  void SetUp() override {
    ::setenv("OPENFLINT_RUN_DIR", (dir_.path() / "run").c_str(), 1);
    cx4_ = test::live_connectx4();
    cx3_ = test::device_running("connectx3", test::read_file(test::sample_image("connectx3-old")));
    ASSERT_TRUE(cx4_ && cx3_);
    std::filesystem::create_directories(dir_.path() / "pci");
    auto mounted = pcisim::FuseSysfs::mount(dir_.path() / "pci", {served(kCx4, *cx4_, 0x4000000), served(kCx3, *cx3_, 0x100000)});
    if (!mounted && (mounted.error().code() == ErrorCode::NotSupported ||
                     mounted.error().code() == ErrorCode::PermissionDenied)) {
      GTEST_SKIP() << "FUSE mounting is not permitted here (needs /dev/fuse and CAP_SYS_ADMIN): "
                   << mounted.error().message();
    }
    ASSERT_TRUE(mounted.has_value()) << mounted.error().message();
    fs_ = std::move(mounted).value();
  }
  void TearDown() override { fs_.reset(); }

  static pcisim::ServedDevice served(const PciAddress& a, sim::SimDevice& dev, std::uint64_t bar0_size) {
    pcisim::ServedDevice d;
    d.address = a;
    d.device = &dev;
    d.bar0_size = bar0_size;
    return d;
  }

  [[nodiscard]] std::filesystem::path root() const { return dir_.path() / "pci"; }
  Result<Device> open(const PciAddress& a, bool clear = false) {
    DeviceOpenOptions o;
    o.sysfs_root = root();
    o.clear_gateway_semaphore = clear;
    return open_device(a.to_string(), o);
  }
  std::unique_ptr<PciConfigAccess> config(const PciAddress& a) {
    auto c = PciConfigAccess::open(a, root());
    EXPECT_TRUE(c) << c.error().message();
    return c ? std::move(*c) : nullptr;
  }
  // What another agent (a killed tool) left: a dword written straight into config space.
  void poke_config(const PciAddress& a, std::uint32_t offset, std::uint32_t value) {
    const auto path = root() / "devices" / a.to_string() / "config";
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(::pwrite(fd, &value, 4, offset), 4);
    ::close(fd);
  }
  static std::vector<std::string> whats(const StaleLockReport& r) {
    std::vector<std::string> out;
    for (const auto& l : r.freed) out.push_back(l.what);
    return out;
  }

  test::TempDir dir_;
  std::unique_ptr<sim::SimDevice> cx4_;
  std::unique_ptr<sim::SimDevice> cx3_;
  std::unique_ptr<pcisim::FuseSysfs> fs_;
};

TEST_F(StaleLocks, AHeldGatewaySemaphoreIsNamedAndFreedBeforeTheHwIdIsRead) {
  poke_config(kCx4, sim::PciConfigSpace::kVsecOffset + kVsecSemaphore, 0x4242);  // a tool died inside an access
  const auto start = Clock::now();
  auto busy = open(kCx4);
  const auto waited = Clock::now() - start;
  ASSERT_FALSE(busy);
  EXPECT_EQ(busy.error().code(), ErrorCode::Busy);
  const std::string& m = busy.error().message();
  EXPECT_TRUE(has(m, "the VSEC gateway semaphore (config 0xcc) is held by another agent")) << m;
  EXPECT_TRUE(has(m, "ticket 0x4242")) << m;
  EXPECT_TRUE(has(m, "no openflint process holds")) << m;
  EXPECT_TRUE(has(m, "run 'flint -d " + kCx4.to_string() + " clear_semaphore'")) << m;
  EXPECT_LT(waited, std::chrono::seconds(20));
  EXPECT_EQ(cx4_->counters().register_reads, 0u) << "the hw id was read under another's semaphore";

  auto cleared = open(kCx4, /*clear=*/true);
  ASSERT_TRUE(cleared) << cleared.error().message();
  ASSERT_EQ(cleared->reclaimed_at_open().size(), 1u);
  EXPECT_EQ(cleared->reclaimed_at_open()[0].what, "the VSEC gateway semaphore");
  EXPECT_TRUE(has(cleared->reclaimed_at_open()[0].detail, "ticket 0x4242")) << cleared->reclaimed_at_open()[0].detail;
  auto report = reclaim_stale_locks(*cleared);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_EQ(whats(*report), std::vector<std::string>{"the VSEC gateway semaphore"});
  EXPECT_TRUE(report->not_checked.empty());
}

// A held ICMD semaphore breaks the register channel: the flash path is refused (Busy, with the
// remedy and --ocr), never taken through the gateway under the firmware that owns the flash.
TEST_F(StaleLocks, AHeldIcmdSemaphoreRefusesTheFlashInsteadOfTheGateway) {
  const std::uint32_t dead = 0x80001234;
  auto c = config(kCx4);
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->write_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&dead, 1)));
  auto dev = open(kCx4);
  ASSERT_TRUE(dev) << dev.error().message();
  const auto gateway_before = cx4_->counters().gateway_commands;
  auto path = flash_path(*dev);
  ASSERT_FALSE(path);
  EXPECT_EQ(path.error().code(), ErrorCode::Busy);
  const std::string& m = path.error().message();
  EXPECT_TRUE(has(m, "the ICMD semaphore is held by another agent")) << m;
  EXPECT_TRUE(has(m, "clear_semaphore")) << m;
  EXPECT_TRUE(has(m, "--ocr")) << m;
  auto raw = open_device_flash(*dev);
  ASSERT_FALSE(raw);
  EXPECT_EQ(raw.error().code(), ErrorCode::Busy) << raw.error().message();
  EXPECT_EQ(cx4_->counters().gateway_commands, gateway_before) << "the gateway was used under the firmware";
  EXPECT_EQ(cx4_->counters().firmware.gateway_conflicts, 0u);

  auto report = reclaim_stale_locks(*dev);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_EQ(whats(*report), std::vector<std::string>{"the ICMD semaphore"});
  EXPECT_TRUE(has(report->freed[0].detail, "0x80001234")) << report->freed[0].detail;
  auto freed_path = flash_path(*dev);
  ASSERT_TRUE(freed_path) << freed_path.error().message();
  EXPECT_EQ(*freed_path, FlashPath::Firmware);
}

// A session that took the update handle and died: the handle stays held (the firmware has no
// owner to hear from), reclaiming forces it free.
TEST_F(StaleLocks, AnUpdateHandleADeadSessionHeldIsForcedFree) {
  {
    auto port = IcmdRegisterPort::open(root() / "devices" / kCx4.to_string());
    ASSERT_TRUE(port) << port.error().message();
    auto idle = ComponentUpdater::handle_state(**port);
    ASSERT_TRUE(idle) << idle.error().message();
    ASSERT_FALSE(idle->held());
    AccessRegisterTlv lock;
    lock.register_id = 0x9062;  // MCC LOCK_UPDATE_HANDLE with the handle GET showed
    lock.method = AccessRegisterTlv::kMethodWrite;
    lock.data.assign(0x20, 0);
    lock.data[3] = 1;
    lock.data[9] = static_cast<std::uint8_t>(idle->handle >> 16);
    lock.data[10] = static_cast<std::uint8_t>(idle->handle >> 8);
    lock.data[11] = static_cast<std::uint8_t>(idle->handle);
    auto taken = (*port)->transact(lock);
    ASSERT_TRUE(taken && taken->status == 0);
  }  // the session ends without RELEASE
  auto dev = open(kCx4);
  ASSERT_TRUE(dev) << dev.error().message();
  auto port = dev->register_port();
  ASSERT_TRUE(port);
  auto held = ComponentUpdater::handle_state(**port);
  ASSERT_TRUE(held && held->held());
  EXPECT_EQ(update_state_name(held->state), "LOCKED");
  auto report = reclaim_stale_locks(*dev);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_EQ(whats(*report), std::vector<std::string>{"the firmware's update handle"});
  EXPECT_TRUE(has(report->freed[0].detail, "state LOCKED")) << report->freed[0].detail;
  auto after = ComponentUpdater::handle_state(**port);
  ASSERT_TRUE(after);
  EXPECT_FALSE(after->held());
}

// ConnectX-3 (the 0x58 window, no VSEC): the flash semaphore and the tools HCR semaphore, both
// taken by a read, are freed; with nothing held, nothing is reported.
TEST_F(StaleLocks, AConnectX3sFlashAndToolsHcrSemaphoresAreFreed) {
  auto c = config(kCx3);
  ASSERT_TRUE(c);
  for (std::uint32_t semaphore : {cx3_->info().flash_gateway.semaphore_addr, cx3_->info().tools_hcr->semaphore}) {
    auto was = c->read32(semaphore);  // 0: free, and taken by this read
    ASSERT_TRUE(was && *was == 0);
  }
  auto dev = open(kCx3, /*clear=*/true);
  ASSERT_TRUE(dev) << dev.error().message();
  EXPECT_TRUE(dev->reclaimed_at_open().empty());  // the window has no gateway semaphore
  auto report = reclaim_stale_locks(*dev);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_EQ(whats(*report), (std::vector<std::string>{"the flash gateway lock", "the tools HCR semaphore"}));
  {
    auto flash = open_device_flash(*dev);
    ASSERT_TRUE(flash) << flash.error().message();
    EXPECT_TRUE(flash->through_gateway());  // not firmware-mediated: the gateway is ConnectX-3's path
  }
  auto again = reclaim_stale_locks(*dev);
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_TRUE(again->freed.empty());
}

}  // namespace
}  // namespace openflint
