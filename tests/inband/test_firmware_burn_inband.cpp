// Our flint burns live adapters and switches in-band through their running firmware (GMP register access), not the flash gateway.
#include <nlohmann/json.hpp>

#include "tests/inband/DeviceFabricFixture.h"
#include "tests/support/LiveDevice.h"

namespace openflint::test {
namespace {

class FirmwareBurnInband : public DeviceFabricFixture {
 protected:
  std::filesystem::path save(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const auto path = dir_.path() / name;
    write_file(path, bytes);
    return path;
  }
  // The device as hcasim created it (the responder saves only when it stops).
  sim::SimCounters counters_now(const std::string& node) {
    auto d = sim::SimDevice::load_state(device_dir(node));
    EXPECT_TRUE(d) << d.error().message();
    return d ? (*d)->counters() : sim::SimCounters{};
  }
};

std::string json_field(const std::string& text, const char* key) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() || !j.contains(key) ? "" : j[key].get<std::string>();
}

TEST_F(FirmwareBurnInband, AnAdapterTakesTheImageThroughItsFirmwareAndGatewayOnlyWithOcr) {
  const auto a = save("a.bin", mcc_fs3(28));
  const auto b = save("b.bin", mcc_fs3(29));
  const auto c = save("c.bin", mcc_fs3(30));
  bring_up({{"Hca2", "connectx4", a}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto created = counters_now("Hca2");

  auto burn = flint("Hca2", {"-i", b.string(), "burn", "-y", "--json"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  EXPECT_EQ(json_field(burn.out, "path"), "firmware") << burn.out;
  auto device = stop_and_load("Hca2");
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->counters().gateway_commands, created.gateway_commands) << "the burn used the flash gateway";
  EXPECT_EQ(device->firmware_counters().component_activations, 1u);
  EXPECT_GT(device->firmware_counters().component_writes, 0u);
  device->power_cycle();
  ASSERT_TRUE(device->boot_state().running && device->boot_state().running->fw_version);
  EXPECT_EQ(device->boot_state().running->fw_version->minor, 29u);
  ASSERT_TRUE(device->save_state(device_dir("Hca2")));
  device.reset();

  start_responder("Hca2");
  if (HasFatalFailure()) return;
  const auto before_ocr = counters_now("Hca2");
  auto ocr = flint("Hca2", {"-i", c.string(), "burn", "-y", "--json", "--ocr"});
  ASSERT_EQ(ocr.exit_code, 0) << ocr.out << ocr.err;
  EXPECT_EQ(json_field(ocr.out, "path"), "flash gateway") << ocr.out;
  device = stop_and_load("Hca2");
  ASSERT_NE(device, nullptr);
  EXPECT_GT(device->counters().gateway_commands, before_ocr.gateway_commands);
}

TEST_F(FirmwareBurnInband, ASwitchTakesTheImageThroughItsFirmwareAndRunsItAfterReset) {
  const auto a = save("sa.bin", mcc_fs3(28, 0x249));
  const auto b = save("sb.bin", mcc_fs3(31, 0x249));
  bring_up({{"Switch1", "spectrum", a}});
  if (HasFatalFailure() || IsSkipped()) return;
  const auto created = counters_now("Switch1");
  auto burn = flint("Switch1", {"-i", b.string(), "burn", "-y", "--json"});
  ASSERT_EQ(burn.exit_code, 0) << burn.out << burn.err;
  EXPECT_EQ(json_field(burn.out, "path"), "firmware") << burn.out;
  {
    auto device = stop_and_load("Switch1");
    ASSERT_NE(device, nullptr);
    EXPECT_EQ(device->counters().gateway_commands, created.gateway_commands) << "the burn used the flash gateway";
  }
  start_responder("Switch1");  // the saved device: flash and boot address as the firmware left them
  if (HasFatalFailure()) return;
  auto reset = flint("Switch1", {"reset"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  EXPECT_NE(reset.out.find("FW Version(Running):   12.31.1100"), std::string::npos) << reset.out;
}

}  // namespace
}  // namespace openflint::test
