// Killed tools (issue 33): flint SIGKILLed at points spread over a burn — through the firmware of a
// ConnectX-4 that owns its flash, over PCI config space and over the BAR; through the gateway of
// a ConnectX-3 over the BAR; of a sim:PATH device — then what the next tools find; and a register
// channel broken in each way a dead tool can break it, under which no command may fall back to
// the gateway.
#include <fcntl.h>
#include <sys/file.h>

#include <cstdlib>

#include "fwops/burn/ComponentUpdater.h"
#include "mtcr/pci/IcmdRegisterPort.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "sim/PciConfigSpace.h"
#include "tests/hostile/KilledToolFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

// Kill points per burn: 5 per PCI transport of the ConnectX-4 (10 over PCI), 3 on the ConnectX-3
// and sim:PATH (each busy q waits for the held lock, 1-5 s, for CI's time budget).
// OPENFLINT_TEST_KILLS sets them all (e.g. 30 for a deeper run).
int kills(int fallback) {
  const char* env = std::getenv("OPENFLINT_TEST_KILLS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : fallback;
}
const std::set<std::string> kMccVersions{"12.28.1100", "12.29.1100"};

class KilledTools : public KilledToolFixture {
 protected:
  // Two images a ConnectX-4's firmware takes (built with MCC), FW 12.28/12.29.1100.
  std::vector<std::filesystem::path> mcc_images() {
    std::vector<std::filesystem::path> paths;
    for (std::uint16_t minor : {29, 28}) {
      paths.push_back(dir_ / ("mcc-" + std::to_string(minor) + ".bin"));
      write_file(paths.back(), mcc_fs3(minor));
    }
    return paths;
  }

  // After the kills: the reset runs old or new, and (server stopped) no gateway erase or program
  // reached the firmware.
  void check_end_state(const std::string& name, const std::filesystem::path& dev, const std::set<std::string>& versions) {
    const auto reset = flint({"-d", name, "-y", "reset"});
    ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
    const auto q = flint({"-d", "pciconf-03:00.0", "q"});
    ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_TRUE(versions.contains(query_field(q.out, "FW Version(Running)"))) << q.out;
    stop_server();
    const auto c = saved_counters(dev);
    EXPECT_EQ(c.firmware.gateway_conflicts, 0u) << "a gateway erase or program reached the running firmware";
  }

  // `bar`: serve BAR0 too (else config space only: no BAR server thread to compete for the CPU).
  void kill_firmware_burns(const std::string& name, bool bar) {
    const auto images = mcc_images();
    const auto dev = create_device("cx4", "connectx4", images[1]);
    if (!serve({dev}, bar ? std::vector<std::string>{} : std::vector<std::string>{"--no-bar"})) return;
    const Ms full = timed_burn(name, images[0]);
    kill_burns(name, {images[1], images[0]}, kMccVersions, full, kills(5), "03:00.0");
    if (HasFatalFailure()) return;
    check_end_state(name, dev, kMccVersions);
  }
};

TEST_F(KilledTools, FirmwareBurnsOfAConnectX4OverConfigSpace) { kill_firmware_burns("pciconf-03:00.0", false); }

TEST_F(KilledTools, FirmwareBurnsOfAConnectX4OverTheBar) { kill_firmware_burns("03:00.0", true); }

// ConnectX-3: no firmware flash access, the tool drives the gateway (its semaphore 0xf03fc is
// held for the whole write) and asks the running firmware through the tools HCR.
TEST_F(KilledTools, GatewayBurnsOfAConnectX3OverTheBar) {
  const auto old_image = sample_image("connectx3-old"), new_image = sample_image("connectx3-new");
  const std::set<std::string> versions{image_version(old_image), image_version(new_image)};
  const auto dev = create_device("cx3", "connectx3", old_image);
  if (!serve({dev})) return;
  const Ms full = timed_burn("03:00.0", new_image);
  // No mstflint here: 4.21 cannot open a served ConnectX-3 through its BAR, even a fresh one
  // ("Cannot open Device ... MFE_TIMEOUT"); tests/pci_interop serves it without one.
  kill_burns("03:00.0", {old_image, new_image}, versions, full, kills(3));
  if (HasFatalFailure()) return;
  check_end_state("03:00.0", dev, versions);
}

// sim:PATH: a killed flint never saved the device (it saves at the end), so the next tool finds
// it as it was; nothing is ever left held.
TEST_F(KilledTools, BurnsOfASimPathDevice) {
  const auto images = mcc_images();
  const auto dev = create_device("cx4", "connectx4", images[1]);
  const std::string name = "sim:" + dev.string();
  const Ms full = timed_burn(name, images[0]);
  const KillTally tally = kill_burns(name, {images[1], images[0]}, kMccVersions, full, kills(3));
  EXPECT_EQ(tally.busy_after, 0);
  EXPECT_TRUE(tally.freed.empty());
}

// clear_semaphore refuses while a live process holds the device lock, naming it.
TEST_F(KilledTools, ClearSemaphoreRefusesWhileALiveProcessHoldsTheDevice) {
  const auto images = mcc_images();
  const auto dev = create_device("cx4", "connectx4", images[1]);
  const int fd = ::open((dev / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);  // this test process is the live holder
  const auto refused = flint({"-d", "sim:" + dev.string(), "--lock-timeout", "100", "clear_semaphore"});
  ::close(fd);
  EXPECT_EQ(refused.exit_code, 5) << refused.out << refused.err;
  EXPECT_TRUE(contains(refused.err, "not freeing locks a live process may hold")) << refused.err;
  EXPECT_TRUE(contains(refused.err, "pid " + std::to_string(::getpid()))) << refused.err;
  const auto cleared = flint({"-d", "sim:" + dev.string(), "clear_semaphore"});
  EXPECT_EQ(cleared.exit_code, 0) << cleared.out << cleared.err;
  EXPECT_TRUE(contains(cleared.out, "Nothing was held")) << cleared.out;
}

// The register channel of a ConnectX-4 whose firmware owns the flash, broken as a dead tool
// leaves it; this test process, which takes no openflint lock, plays that tool.
class BrokenChannel : public KilledTools {
 protected:
  std::filesystem::path device_dir() const { return sysfs_ / "devices" / "0000:03:00.0"; }
  void hold_gateway_semaphore() {
    const int fd = ::open((device_dir() / "config").c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const std::uint32_t ticket = 0x5eed;
    EXPECT_EQ(::pwrite(fd, &ticket, 4, sim::PciConfigSpace::kVsecOffset + kVsecSemaphore), 4);
    ::close(fd);
  }
  void hold_icmd_semaphore() {
    auto config = PciConfigAccess::open(PciAddress{0, 3, 0, 0}, sysfs_);
    ASSERT_TRUE(config) << config.error().message();
    const std::uint32_t ticket = 0x80000000u | 4242;  // a PID that is gone
    ASSERT_TRUE((*config)->write_space(VsecSpace::Semaphore, kIcmdSemaphore, std::span(&ticket, 1)));
  }
  void hold_update_handle() {
    auto port = IcmdRegisterPort::open(device_dir());
    ASSERT_TRUE(port) << port.error().message();
    auto idle = ComponentUpdater::handle_state(**port);
    ASSERT_TRUE(idle && !idle->held());
    AccessRegisterTlv lock;  // MCC LOCK_UPDATE_HANDLE with the handle GET showed; never released
    lock.register_id = 0x9062;
    lock.method = AccessRegisterTlv::kMethodWrite;
    lock.data.assign(0x20, 0);
    lock.data[3] = 1;
    for (int i = 0; i < 3; ++i) lock.data[9 + i] = static_cast<std::uint8_t>(idle->handle >> (16 - 8 * i));
    auto taken = (*port)->transact(lock);
    ASSERT_TRUE(taken && taken->status == 0);
  }

  // The burn and a raw write (`raw`: ww or erase; both open the flash the same way) refused Busy
  // with the remedy; then one clear_semaphore frees `what`.
  void expect_refused_then_freed(const std::string& what, const std::filesystem::path& image,
                                 const std::vector<std::string>& raw, bool raw_refused = true) {
    const auto burn = flint({"-d", "03:00.0", "-i", image.string(), "-y", "burn"});
    EXPECT_EQ(burn.exit_code, 5) << burn.out << burn.err;
    EXPECT_TRUE(contains(burn.err, "clear_semaphore")) << burn.err;
    std::vector<std::string> args{"-d", "03:00.0"};
    args.insert(args.end(), raw.begin(), raw.end());
    const auto r = flint(args);
    if (raw_refused) {
      EXPECT_EQ(r.exit_code, 5) << raw[0] << ": " << r.out << r.err;
      EXPECT_TRUE(contains(r.err, "clear_semaphore")) << raw[0] << ": " << r.err;
    } else {  // the firmware's flash registers need no update handle: through them, never the gateway
      EXPECT_EQ(r.exit_code, 0) << raw[0] << ": " << r.out << r.err;
    }
    const auto cleared = flint({"-d", "03:00.0", "clear_semaphore"});
    ASSERT_EQ(cleared.exit_code, 0) << cleared.out << cleared.err;
    EXPECT_TRUE(contains(cleared.out, "-I- Freed " + what + " of 03:00.0")) << cleared.out;
    const auto q = flint({"-d", "03:00.0", "q"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  }
};

TEST_F(BrokenChannel, EveryWayADeadToolBreaksItRefusesTheFlashWithTheRemedy) {
  const auto images = mcc_images();
  const auto dev = create_device("cx4", "connectx4", images[1]);
  const auto before = saved_counters(dev);
  if (!serve({dev})) return;
  const std::vector<std::string> ww{"ww", "0x700000", "0x12345678"}, erase{"erase", "0x700000"};
  hold_gateway_semaphore();
  expect_refused_then_freed("the VSEC gateway semaphore", images[0], ww);
  hold_icmd_semaphore();
  expect_refused_then_freed("the ICMD semaphore", images[0], erase);
  hold_update_handle();
  expect_refused_then_freed("the firmware's update handle", images[0], erase, /*raw_refused=*/false);
  stop_server();
  const auto after = saved_counters(dev);
  EXPECT_EQ(after.gateway_commands, before.gateway_commands) << "a command fell back to the flash gateway";
  EXPECT_EQ(after.firmware.gateway_conflicts, 0u);
  EXPECT_EQ(after.firmware.component_activations, before.firmware.component_activations) << "a refused burn ran";
  if (!serve({dev})) return;
  if (auto mq = mstflint_query("03:00.0")) {
    EXPECT_EQ(mq->exit_code, 0) << mq->out << mq->err;
  }
}

// ConnectX-3: the gateway is its flash path whatever its tools HCR says, so a held HCR semaphore
// does not stop a burn; clear_semaphore frees it.
TEST_F(BrokenChannel, AConnectX3BurnsThroughItsGatewayWithItsToolsHcrHeld) {
  const auto old_image = sample_image("connectx3-old"), new_image = sample_image("connectx3-new");
  const auto dev = create_device("cx3", "connectx3", old_image);
  if (!serve({dev})) return;
  {
    auto config = PciConfigAccess::open(PciAddress{0, 3, 0, 0}, sysfs_);
    ASSERT_TRUE(config) << config.error().message();
    auto took = (*config)->read32(kConnectX3ToolsHcr.semaphore);  // a read of 0 takes it
    ASSERT_TRUE(took && *took == 0);
  }
  const auto burn = flint({"-d", "03:00.0", "-i", new_image.string(), "-y", "burn"});
  EXPECT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  const auto cleared = flint({"-d", "03:00.0", "clear_semaphore"});
  ASSERT_EQ(cleared.exit_code, 0) << cleared.out << cleared.err;
  EXPECT_TRUE(contains(cleared.out, "-I- Freed the tools HCR semaphore of 03:00.0")) << cleared.out;
  const auto q = flint({"-d", "03:00.0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_EQ(query_field(q.out, "FW Version"), image_version(new_image)) << q.out;
  EXPECT_FALSE(query_field(q.out, "FW Version(Running)").empty()) << "the tools HCR answers again: " << q.out;
}

}  // namespace
}  // namespace openflint::test
