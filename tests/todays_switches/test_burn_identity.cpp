// (c) Our burns of today's switches keep each board's identity (GUIDs, MACs, VSD in the FS4
// device data): the default burn, which the switch's running firmware takes through its component
// update (MCC/MCDA), and the failsafe burn through the flash gateway (--ocr). Simulated devices
// (sim:PATH); the saved device's counters tell which path wrote.
#include <regex>

#include "sim/SimDevice.h"
#include "tests/todays_switches/SwitchModels.h"

namespace openflint::test {
namespace {

class TodaysSwitchBurn : public ::testing::TestWithParam<SwitchModel> {
 protected:
  std::string model() const { return GetParam().model; }
  std::string make_device(const std::string& name, const BoardIdentity& id) {
    const auto image = dir_ / (name + ".bin");
    make_board_image(model(), image, id);
    const auto r = run_tool("hcasim", {"create", "--model", model(), (dir_ / name).string(), "--image", image.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return "sim:" + (dir_ / name).string();
  }
  sim::SimCounters counters(const std::string& name) {
    auto d = sim::SimDevice::load_state(dir_ / name);
    EXPECT_TRUE(d) << d.error().message();
    return d ? (*d)->counters() : sim::SimCounters{};
  }
  std::string running_version(const std::string& name) {
    const auto r = run_tool("hcasim", {"show", (dir_ / name).string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const std::regex field("\"fw_version\":\\s*\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(r.out, m, field) ? m[1].str() : std::string();
  }
  std::string version(const std::string& which) {
    return flint_query_json({"-i", sample_image(model() + "-" + which).string()})["fw_version"];
  }
  TempDir dir_;
};

TEST_P(TodaysSwitchBurn, TheRunningFirmwareTakesTheImageAndKeepsTheIdentity) {
  const BoardIdentity a{0x0002c90300a1a100ull, 0x0002c9a1a100ull, "switch board A"};
  const std::string dev = make_device("a", a);
  const auto before = counters("a");
  const auto b = run_tool("flint", {"-d", dev, "-i", sample_image(model() + "-new").string(), "-y", "burn"});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  EXPECT_NE(b.err.find("GUIDs/MACs from the device"), std::string::npos) << b.err;
  const auto after = counters("a");
  EXPECT_EQ(after.firmware.component_activations, before.firmware.component_activations + 1)
      << "the burn did not go through the firmware's component update";
  EXPECT_EQ(after.flash.programs - before.flash.programs, after.firmware.flash_programs - before.firmware.flash_programs)
      << "a program went by the gateway";
  expect_board(flint_query_json({"-d", dev}), a, version("new"));
  EXPECT_EQ(run_tool("flint", {"-d", dev, "v"}).exit_code, 0);
  // The old firmware runs until the reset; then the new one, and the identity is the board's.
  EXPECT_EQ(running_version("a"), version("old"));
  const auto r = run_tool("flint", {"-d", dev, "-y", "reset"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(running_version("a"), version("new"));
  expect_board(flint_query_json({"-d", dev}), a, version("new"));
}

TEST_P(TodaysSwitchBurn, TheFailsafeGatewayBurnKeepsTheIdentity) {
  const BoardIdentity b{0x0002c90300b2b200ull, 0x0002c9b2b200ull, "switch board B"};
  const std::string dev = make_device("b", b);
  const auto before = counters("b");
  const auto burn = run_tool("flint", {"-d", dev, "-i", sample_image(model() + "-new").string(), "-y", "--ocr", "burn"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  const auto after = counters("b");
  EXPECT_EQ(after.firmware.component_activations, before.firmware.component_activations) << "--ocr went by MCC";
  EXPECT_GT(after.flash.programs, before.flash.programs);
  EXPECT_GT(after.gateway_commands, before.gateway_commands);
  // Written under the running firmware: Quantum-2's keeps running (mstflint itself burns it so),
  // the others' hang until the reset (docs/fwaccess.md).
  EXPECT_EQ(after.firmware.gateway_conflicts > before.firmware.gateway_conflicts, !GetParam().gateway_burn_over_pci);
  // The failsafe burn wrote the other half and pointed the boot-address register at it.
  const auto boot = run_tool("mst", {"mread", dev, GetParam().boot_register});
  EXPECT_EQ(boot.out, std::string(GetParam().boot_register) + " 0x01000000\n") << boot.err;
  const auto r = run_tool("flint", {"-d", dev, "-y", "reset"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(running_version("b"), version("new"));
  expect_board(flint_query_json({"-d", dev}), b, version("new"));
  EXPECT_EQ(run_tool("flint", {"-d", dev, "v"}).exit_code, 0);
  // And back to the old release the same way: still the board's own identity.
  const auto down = run_tool("flint", {"-d", dev, "-i", sample_image(model() + "-old").string(), "-y", "--ocr", "burn"});
  ASSERT_EQ(down.exit_code, 0) << down.out << down.err;
  ASSERT_EQ(run_tool("flint", {"-d", dev, "-y", "reset"}).exit_code, 0);
  expect_board(flint_query_json({"-d", dev}), b, version("old"));
}

INSTANTIATE_TEST_SUITE_P(Models, TodaysSwitchBurn, ::testing::ValuesIn(kTodaysSwitches), switch_model_name);

}  // namespace
}  // namespace openflint::test
