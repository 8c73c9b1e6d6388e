// Power-cut proof of the failsafe burn through PCI configuration space: the burns go through a
// PciConfigAccess over a FuseSysfs tree serving the harness's simulated device (the 0x58 window
// on a ConnectX-3 (FS2), the VSEC gateway on a ConnectX-4 (FS3)); power cuts, power cycles and
// boot checks act on the simulator. A config-space CR dword costs ~20-200 us over FUSE, so the
// images are small and the re-burns sparse. The PCI issue asks for >= 100 cut points per model:
// 100 spread over the burn (nearly every op) plus every one of its last 12 ops (the new magic
// and the old copy's invalidation); tests/powercut/test_powercut.cpp cuts the same burners at
// >= 200 points in memory. Per A->B burn (December 2026): opening the flash ~20 gateway dwords,
// reading the current copy 4-6k, writing (~7 sectors erased, programmed, read back) ~17k (FS2) /
// ~30k (FS3); a cut burn stops at the cut (the VSEC reports a syndrome, the window reads all
// ones). Measured on 2 shared cores under a load of ~10: FS2 254 s, FS3 378 s (40 spread
// points: 64 s, 193 s — too few for the acceptance).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "image/Fs2Writer.h"
#include "image/Fs3Writer.h"
#include "image/SectionType.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "pcisim/FuseSysfs.h"
#include "tests/support/PowerCutHarness.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

constexpr int kSpreadCutPoints = 100;
constexpr int kTailCutPoints = 12;
constexpr int kReburnEvery = 12;  // a full burn over config space costs seconds: re-burn after every 12th cut
constexpr PciAddress kAddress{0, 0x03, 0, 0};

// Code sizes giving > 100 flash erase/program ops per burn (FS2: 107, FS3: 111); every burn
// also opens the flash and reads the current copy's tables (4-6k gateway dwords).
constexpr std::size_t kFs2CodeBytes = 24 * 1024;
constexpr std::size_t kFs3CodeBytes = 24 * 1024;

// The FUSE mount and the config-space access the burns use; made by the harness's `through`
// callback for its SimDevice. The access is destroyed before the mount (it holds the config file
// open). Both outlive run_power_cuts, hence its SimDevice: after the sweep nothing reads the
// device through the mount (closing the config file and unmounting do not touch the device).
class ConfigSpaceTransport {
 public:
  ~ConfigSpaceTransport() {
    access_.reset();
    fs_.reset();
  }

  // Whether this process may mount FUSE; `why` tells why not.
  static bool mount_permitted(std::string& why) {
    TempDir dir;
    auto probe = sim::SimDevice::create("connectx3");
    if (!probe) {
      why = probe.error().message();
      return false;
    }
    auto mounted = pcisim::FuseSysfs::mount(dir.path(), {served(**probe)});
    if (!mounted && (mounted.error().code() == ErrorCode::NotSupported ||
                     mounted.error().code() == ErrorCode::PermissionDenied)) {
      why = mounted.error().message();
      return false;
    }
    return true;  // other errors show up (as failures) in the real mount
  }

  BurnTransport through() {
    return [this](sim::SimDevice& dev) -> RegisterAccess& {
      auto mounted = pcisim::FuseSysfs::mount(dir_.path(), {served(dev)});
      if (!mounted) {
        ADD_FAILURE() << "mount: " << mounted.error().message();
        return dev;  // the sweep still runs; the transactions check below fails
      }
      fs_ = std::move(mounted).value();
      auto opened = PciConfigAccess::open(kAddress, dir_.path());
      if (!opened) {
        ADD_FAILURE() << "open " << kAddress.to_string() << ": " << opened.error().message();
        return dev;
      }
      access_ = std::move(opened).value();
      return *access_;
    };
  }

  [[nodiscard]] const PciConfigAccess* access() const { return access_.get(); }

 private:
  static pcisim::ServedDevice served(sim::SimDevice& dev) {
    pcisim::ServedDevice d;
    d.address = kAddress;
    d.device = &dev;
    d.bar0_size = 0x100000;  // no resource0: config space is the only way in
    return d;
  }

  TempDir dir_;
  std::unique_ptr<pcisim::FuseSysfs> fs_;
  std::unique_ptr<PciConfigAccess> access_;
};

template <typename F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void sweep(const char* format, const char* model, PciConfigGateway gateway, const std::vector<std::uint8_t>& a,
           const std::vector<std::uint8_t>& b) {
  std::string why;
  if (!ConfigSpaceTransport::mount_permitted(why))
    GTEST_SKIP() << "FUSE mounting is not permitted here (needs /dev/fuse and CAP_SYS_ADMIN): " << why;
  ConfigSpaceTransport transport;
  PowerCutOutcome r;
  const double s = timed([&] { r = run_power_cuts(model, a, b, kSpreadCutPoints, kReburnEvery, {}, transport.through(), kTailCutPoints); });
  const PciConfigCounters c = transport.access() ? transport.access()->counters() : PciConfigCounters{};
  std::printf("[powercut] %s %s through PCI config space (%s): %llu flash ops in an unfaulted burn, %d cut points: "
              "booted A %d, booted B %d, recovery %d; identity lost %d; re-burn failures %d; "
              "%llu gateway dwords, %llu config reads, %llu config writes; %.1f s\n",
              format, model, gateway == PciConfigGateway::Vsec ? "VSEC" : "0x58 window",
              static_cast<unsigned long long>(r.total_ops), r.cut_points, r.booted_a, r.booted_b, r.recovery,
              r.identity_lost, r.reburn_failures, static_cast<unsigned long long>(c.transactions),
              static_cast<unsigned long long>(c.config_reads), static_cast<unsigned long long>(c.config_writes), s);
  for (const auto& f : r.failures) ADD_FAILURE() << format << ": " << f;
  ASSERT_NE(transport.access(), nullptr);
  EXPECT_EQ(transport.access()->gateway(), gateway);
  EXPECT_GT(c.transactions, 0u);  // the burns really went through config space
  EXPECT_GE(r.cut_points, 100);  // the tail overlaps the spread
  EXPECT_EQ(r.recovery, 0);
  EXPECT_EQ(r.identity_lost, 0);
  EXPECT_EQ(r.reburn_failures, 0);
  EXPECT_GT(r.booted_a, 0);
  EXPECT_GT(r.booted_b, 0);
}

std::vector<std::uint8_t> fs2_image(std::uint16_t subminor, std::uint32_t seed) {
  Fs2ImageSpec spec;
  spec.fw_version = {2, 42, subminor};
  spec.psid = "MT_1090120019";
  spec.base_guid = 0x0002c90300001000ull;
  spec.base_mac = 0x0002c9001000ull;
  spec.sections.push_back({gph::kDdr, random_bytes(kFs2CodeBytes, seed), 0});
  spec.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(512, static_cast<std::uint8_t>(seed)), 0});
  auto image = write_fs2_image(spec);
  EXPECT_TRUE(image.has_value()) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

// A ConnectX-4 image with one small code section (as tests/inband small_fs3_image).
std::vector<std::uint8_t> fs3_image(std::uint16_t minor) {
  Fs3ImageSpec s;
  s.fw_version = {12, minor, 1000};
  s.release_date = ReleaseDate{2024, 2, 1};
  s.psid = "MT_2190110032";
  s.description = "openflint config-space power-cut image";
  s.pci_device_id = 4115;
  s.supported_hw_ids = {0x209};
  s.base_guid = 0x0002c90300b00000ull;
  s.base_mac = 0x0002c9b00000ull;
  std::vector<std::uint8_t> code(kFs3CodeBytes);
  for (std::size_t i = 0; i < code.size(); ++i) code[i] = static_cast<std::uint8_t>(i * 7 + minor);
  s.sections.push_back({section_type::kMainCode, code});
  auto image = write_fs3_image(s);
  EXPECT_TRUE(image) << image.error().message();
  return image ? *image : std::vector<std::uint8_t>{};
}

TEST(PowerCutPci, Fs2ConnectX3ThroughConfigSpace) {
  sweep("FS2", "connectx3", PciConfigGateway::AddressWindow, fs2_image(1000, 1), fs2_image(2000, 2));
}

TEST(PowerCutPci, Fs3ConnectX4ThroughConfigSpace) {
  sweep("FS3", "connectx4", PciConfigGateway::Vsec, fs3_image(10), fs3_image(20));
}

}  // namespace
}  // namespace openflint::test
