// mst reset: the plan, the question, the refusals (held device, bound driver), and a burn followed
// by a reset running the new firmware — on a simulated device (sim:PATH) and over a served PCI
// tree (hcasim pci-serve) where the reset also clears the host's config settings.
#include <fstream>

#include <nlohmann/json.hpp>

#include "fwops/Device.h"
#include "mtcr/pci/PciConfigFile.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class MstReset : public PciServeFixture {
 protected:
  CommandResult mst(std::vector<std::string> args) const {
    args.insert(args.begin(), bin("mst").string());
    return run_command(args, tool_env());
  }
  json mst_json(std::vector<std::string> args, int expected_exit) const {
    args.insert(args.begin(), "--json");
    const auto r = mst(args);
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    try {
      return json::parse(r.out);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not JSON (" << e.what() << "): " << r.out << r.err;
      return json::object();
    }
  }
  void burn_new(const std::string& name, const std::filesystem::path& image) const {
    const auto b = flint({"-d", name, "-i", image.string(), "-y", "burn"});
    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  }
};

TEST_F(MstReset, SimulatedBurnThenResetRunsTheNewFirmware) {
  const auto old_image = sample_image("connectx4-old"), new_image = sample_image("connectx4-new");
  const std::string old_version = image_version(old_image), new_version = image_version(new_image);
  ASSERT_NE(old_version, new_version);
  const auto dev = create_device("cx4", "connectx4", old_image);
  const std::string name = "sim:" + dev.string();
  burn_new(name, new_image);

  // No terminal and no -y: the plan is shown, the answer is no (exit 7), nothing happens.
  const auto asked = mst({"reset", name});
  EXPECT_EQ(asked.exit_code, 7) << asked.out << asked.err;
  EXPECT_NE(asked.out.find("Running FW:      " + old_version), std::string::npos) << asked.out;
  EXPECT_EQ(saved_running_version(dev), old_version) << "a declined reset must not reset";

  // Another process holds the device (as a burn would): refused as busy (exit 5), not reset.
  {
    auto held = open_device(name);
    ASSERT_TRUE(held) << held.error().message();
    const auto busy = mst({"reset", name, "-y", "--lock-wait", "100"});
    EXPECT_EQ(busy.exit_code, 5) << busy.out << busy.err;
    EXPECT_NE(busy.err.find("-E- "), std::string::npos) << busy.err;
  }
  EXPECT_EQ(saved_running_version(dev), old_version);

  const json done = mst_json({"reset", name, "-y"}, 0);
  EXPECT_EQ(done["ok"], true);
  EXPECT_EQ(done["plan"]["running_before"]["fw_version"], old_version) << done.dump(2);
  EXPECT_EQ(done["running_after"]["fw_version"], new_version) << done.dump(2);
  EXPECT_EQ(saved_running_version(dev), new_version) << "the reset's boot is saved with the device";

  const auto missing = mst({"reset", "sim:" + (dir_ / "nope").string(), "-y"});
  EXPECT_EQ(missing.exit_code, 4) << missing.out << missing.err;
}

TEST_F(MstReset, PciResetRefusesABoundDriverThenUnbindsSavesRestoresAndBinds) {
  const auto old_image = sample_image("connectx4-old"), new_image = sample_image("connectx4-new");
  const std::string new_version = image_version(new_image);
  const auto dev = create_device("cx4", "connectx4", old_image);
  if (!serve({dev}, {"--bdf", "0000:03:00.0", "--driver", "mlx5_core", "--reset-clears-config"})) return;
  const auto fn = sysfs_ / "devices" / "0000:03:00.0";
  burn_new("03:00.0", new_image);
  auto before = read_pci_config(fn);
  ASSERT_TRUE(before) << before.error().message();
  ASSERT_NE(config_dword(*before, 0x10) & ~0xfu, 0u) << "BAR0 is assigned before the reset";

  // A bound driver refuses the reset (exit 5) and nothing changes.
  const json refused = mst_json({"reset", "03:00.0", "-y"}, 5);
  EXPECT_EQ(refused["ok"], false);
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("mlx5_core"), std::string::npos) << refused.dump(2);
  auto unchanged = read_pci_config(fn);
  ASSERT_TRUE(unchanged);
  EXPECT_EQ(config_dword(*unchanged, 0x10), config_dword(*before, 0x10));

  // --unbind: unbound, reset (which clears BAR0 and the command register here), restored, bound.
  const json done = mst_json({"reset", "03:00.0", "-y", "--unbind"}, 0);
  EXPECT_EQ(done["ok"], true) << done.dump(2);
  // The running firmware before and after, from MGIR through the ICMD mailbox.
  EXPECT_EQ(done["plan"]["running_before"]["fw_version"], image_version(old_image)) << done.dump(2);
  EXPECT_EQ(done["running_after"]["fw_version"], new_version) << done.dump(2);
  ASSERT_EQ(done["plan"]["functions"].size(), 1u) << done.dump(2);
  EXPECT_EQ(done["plan"]["functions"][0]["driver"], "mlx5_core");
  const auto restored = done["restored"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(restored.begin(), restored.end(), "0000:03:00.0 BAR0"), restored.end()) << done.dump(2);
  auto after = read_pci_config(fn);
  ASSERT_TRUE(after);
  for (std::uint32_t reg : {0x04u, 0x10u, 0x14u, 0x3cu})
    EXPECT_EQ(config_dword(*after, reg) & (reg == 0x04 ? 0xffffu : 0xffffffffu),
              config_dword(*before, reg) & (reg == 0x04 ? 0xffffu : 0xffffffffu))
        << "config register " << reg << " after the reset";
  std::error_code ec;
  EXPECT_EQ(std::filesystem::read_symlink(fn / "driver", ec).filename(), "mlx5_core") << "the driver is bound again";

  // The tools still reach the device (BAR0 restored), and the reset ran the new firmware.
  const auto q = flint({"-d", "03:00.0", "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  stop_server();
  EXPECT_EQ(saved_running_version(dev), new_version);
}

// The firmware's reset register (MFRL) decides whether a PCI reset loads new firmware: level 4
// only arms it (nothing is reset, the old firmware runs on), level 3 arms and resets the link
// through the kernel's bus reset, and reset_method is put back afterwards. A function-level reset
// alone (what the kernel's reset file does by default) leaves the old firmware running.
TEST_F(MstReset, PciResetArmsTheFirmwareResetRegisterAndUsesABusReset) {
  const auto old_image = sample_image("connectx4-old"), new_image = sample_image("connectx4-new");
  const std::string old_version = image_version(old_image), new_version = image_version(new_image);
  const auto dev = create_device("cx4", "connectx4", old_image);
  if (!serve({dev}, {"--bdf", "0000:03:00.0"})) return;
  const auto fn = sysfs_ / "devices" / "0000:03:00.0";
  burn_new("03:00.0", new_image);

  // The kernel's default method (FLR) does not reload firmware.
  {
    std::ofstream reset(fn / "reset");
    reset << "1\n";
  }
  const auto q = flint({"-d", "03:00.0", "--json", "q"});
  EXPECT_NE(q.out.find(old_version), std::string::npos) << "an FLR must leave the old firmware running: " << q.out;

  const json armed = mst_json({"reset", "03:00.0", "-y", "--level", "4"}, 0);
  EXPECT_EQ(armed["plan"]["resets_now"], false) << armed.dump(2);
  EXPECT_EQ(armed["plan"]["firmware_reset"]["level"], 4) << armed.dump(2);
  EXPECT_EQ(armed["plan"]["firmware_reset"]["supported_levels"], 0x48) << armed.dump(2);
  EXPECT_EQ(armed["running_after"]["fw_version"], old_version) << "level 4 resets nothing now";

  const json done = mst_json({"reset", "03:00.0", "-y"}, 0);
  EXPECT_EQ(done["plan"]["firmware_reset"]["state"], "armed, waiting for the PCI reset") << done.dump(2);
  EXPECT_EQ(done["plan"]["pci_reset_method"], "bus") << done.dump(2);
  EXPECT_EQ(done["running_after"]["fw_version"], new_version) << done.dump(2);
  std::ifstream methods(fn / "reset_method");
  std::string line;
  std::getline(methods, line);
  EXPECT_EQ(line, "flr bus") << "the kernel's reset methods are selected again after the reset";
}

// Firmware without the reset register, and a function that shares its bus (no bus reset through
// the kernel's reset file): refused with the reason, nothing reset.
TEST_F(MstReset, PciResetRefusesWhenTheNewFirmwareCouldNotRun) {
  const auto old_image = sample_image("connectx4-old"), new_image = sample_image("connectx4-new");
  const std::string old_version = image_version(old_image);
  const auto a = create_device("a", "connectx4", old_image);
  const auto b = create_device("b", "connectx4", old_image);
  if (!serve({a, b}, {"--bdf", "0000:03:00.0", "--bdf", "0000:03:00.1", "--no-reset-register"})) return;
  const json no_register = mst_json({"reset", "03:00.0", "-y"}, 6);
  const std::string why = no_register["error"]["message"].get<std::string>();
  EXPECT_NE(why.find("MFRL not supported"), std::string::npos) << no_register.dump(2);
  EXPECT_NE(why.find("reboot the host"), std::string::npos) << no_register.dump(2);
  stop_server();
  EXPECT_EQ(saved_running_version(a), old_version);

  // With the register (other devices: the fault is saved with a and b), the shared bus is what
  // stops it: the kernel offers only an FLR here.
  const auto c = create_device("c", "connectx4", old_image);
  const auto d = create_device("d", "connectx4", old_image);
  if (!serve({c, d}, {"--bdf", "0000:03:00.0", "--bdf", "0000:03:00.1"})) return;
  burn_new("03:00.0", new_image);
  const json shared = mst_json({"reset", "03:00.0", "-y"}, 6);
  EXPECT_NE(shared["error"]["message"].get<std::string>().find("no bus reset"), std::string::npos) << shared.dump(2);
  stop_server();
  EXPECT_EQ(saved_running_version(c), old_version);
}

}  // namespace
}  // namespace openflint::test
