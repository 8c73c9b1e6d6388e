// Our flint over PCI on a live ConnectX-4 whose firmware takes images: q and burn go through the
// ICMD mailbox (MFBA reads, MCC/MCDA), never the CR-space flash gateway; reset runs the new copy.
#include <nlohmann/json.hpp>

#include "sim/SimDevice.h"
#include "tests/pci_cli/PciServeFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

class FlintPciFirmware : public PciServeFixture {
 protected:
  sim::SimCounters saved_counters(const std::filesystem::path& dev) {
    auto d = sim::SimDevice::load_state(dev);
    EXPECT_TRUE(d) << d.error().message();
    return d ? (*d)->counters() : sim::SimCounters{};
  }
};

TEST_F(FlintPciFirmware, BurnOfALiveConnectX4GoesThroughItsFirmware) {
  const auto old_image = dir_ / "mcc-28.bin", new_image = dir_ / "mcc-29.bin";
  write_file(old_image, mcc_fs3(28));
  write_file(new_image, mcc_fs3(29));
  const auto dev = create_device("cx4", "connectx4", old_image);
  const auto before = saved_counters(dev);
  if (!serve({dev})) return;

  const auto q = flint({"-d", "03:00.0", "q", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  const auto qj = nlohmann::json::parse(q.out, nullptr, false);
  ASSERT_FALSE(qj.is_discarded()) << q.out;
  EXPECT_EQ(qj["fw_version"], "12.28.1100") << q.out;
  EXPECT_EQ(qj["component_update"], true) << q.out;
  const auto b = flint({"-d", "03:00.0", "-i", new_image.string(), "-y", "--json", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  const auto bj = nlohmann::json::parse(b.out, nullptr, false);
  ASSERT_FALSE(bj.is_discarded()) << b.out;
  EXPECT_EQ(bj["path"], "firmware") << b.out;
  // Where the firmware put the copy, read back through it: the slot the old copy (at 0) does not
  // use. The boot-address register, read over the BAR, still showed 0x0 at that moment.
  EXPECT_EQ(bj["new_copy_address"], "0x800000") << b.out;
  // A raw write goes through the firmware too (MFBA/MFBE), not the gateway under it.
  const auto ww = flint({"-d", "03:00.0", "ww", "0x400000", "0x12345678"});
  EXPECT_EQ(ww.exit_code, 0) << ww.out << ww.err;
  const auto rw = flint({"-d", "03:00.0", "rw", "0x400000"});
  EXPECT_EQ(rw.exit_code, 0) << rw.out << rw.err;
  EXPECT_NE(rw.out.find("0x12345678"), std::string::npos) << rw.out;
  stop_server();

  const auto after = saved_counters(dev);
  EXPECT_EQ(after.gateway_commands, before.gateway_commands) << "q, burn or ww used the flash gateway";
  EXPECT_EQ(after.firmware.gateway_conflicts, 0u);
  EXPECT_EQ(after.firmware.component_activations, before.firmware.component_activations + 1);
  EXPECT_EQ(saved_running_version(dev), "12.28.1100");  // until the reset
  if (!serve({dev})) return;
  const auto r = flint({"-d", "03:00.0", "reset"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  stop_server();
  EXPECT_EQ(saved_running_version(dev), "12.29.1100");
}

}  // namespace
}  // namespace openflint::test
