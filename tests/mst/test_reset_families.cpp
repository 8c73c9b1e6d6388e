// mst reset over a served PCI tree (hcasim pci-serve) for every family it serves that has an old
// and a new sample image: burned old -> new, `mst reset -y`, and then the new firmware runs —
// `mst status` and `flint q` show it where the tools can read the running firmware over PCI (MGIR
// through ICMD on VSEC parts, through the tools HCR on ConnectX-3), and the device's saved boot
// state shows it everywhere. No family refuses: the switches' PCI functions reset like adapters.
// ConnectX-3 is the regression case: the reset's config-space save read the CR-space window,
// took the tools HCR's semaphore, and MGIR answered no more after the reset.
#include <ostream>

#include <nlohmann/json.hpp>

#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

using nlohmann::json;

struct Family {
  std::string model;  // hcasim model and sample prefix
  // The new image is burned over PCI; false: as sim:PATH before serving, where a burn over PCI
  // takes minutes (Spectrum-2's 32 MiB, the InfiniHost parallel flash through config space) or
  // cannot reach the flash (InfiniScale III's EEPROMs sit on its I2C bus).
  bool burn_over_pci = true;
  bool flash_over_pci = true;    // flint q reads the flash over PCI
  bool running_over_pci = true;  // MGIR answers over PCI (no channel: SwitchX, InfiniHost, InfiniScale III)
  std::vector<std::string> serve_args = {};  // e.g. --no-bar (no SPI gateway for the BAR server)
};

void PrintTo(const Family& f, std::ostream* os) { *os << f.model; }

class MstResetFamily : public PciServeFixture, public ::testing::WithParamInterface<Family> {
 protected:
  CommandResult mst(std::vector<std::string> args) const {
    args.insert(args.begin(), bin("mst").string());
    return run_command(args, tool_env());
  }
  static json parse(const CommandResult& r) {
    json doc = json::parse(r.out, nullptr, false);
    if (doc.is_discarded()) ADD_FAILURE() << "not JSON: " << r.out << r.err;
    return doc;
  }
};

TEST_P(MstResetFamily, BurnResetRunsTheNewFirmware) {
  const Family& f = GetParam();
  const auto old_image = sample_image(f.model + "-old"), new_image = sample_image(f.model + "-new");
  if (!std::filesystem::exists(old_image) || !std::filesystem::exists(new_image))
    GTEST_SKIP() << "no " << f.model << " sample images (" << new_image.parent_path()
                 << "): the build makes Spectrum-2's from real releases, present only with the shared firmware";
  const std::string old_version = image_version(old_image), new_version = image_version(new_image);
  ASSERT_FALSE(old_version.empty());
  ASSERT_NE(old_version, new_version);
  const auto dev = create_device("dev", f.model, old_image);
  if (!f.burn_over_pci) {
    const auto b = run_tool("flint", {"-d", "sim:" + dev.string(), "-i", new_image.string(), "-y", "burn"});
    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  }
  std::vector<std::string> serve_args{"--bdf", "0000:03:00.0"};
  serve_args.insert(serve_args.end(), f.serve_args.begin(), f.serve_args.end());
  if (!serve({dev}, serve_args)) return;
  if (f.burn_over_pci) {
    const auto b = flint({"-d", "03:00.0", "-i", new_image.string(), "-y", "burn"});
    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  }

  const auto reset = mst({"--json", "reset", "03:00.0", "-y"});
  ASSERT_EQ(reset.exit_code, 0) << reset.out << reset.err;
  const json done = parse(reset);
  EXPECT_EQ(done["ok"], true) << done.dump(2);
  if (f.running_over_pci) {
    EXPECT_EQ(done["plan"]["running_before"]["fw_version"], old_version) << done.dump(2);
    EXPECT_EQ(done["running_after"]["fw_version"], new_version) << done.dump(2);
  } else {
    EXPECT_TRUE(done["running_after"].is_null()) << "no register channel over PCI: " << done.dump(2);
  }

  const auto status = mst({"--json", "status"});
  EXPECT_EQ(status.exit_code, 0) << status.out << status.err;
  const json listed = parse(status);
  ASSERT_EQ(listed["pci"].size(), 1u) << listed.dump(2);
  const json& fn = listed["pci"][0];
  if (f.running_over_pci) {
    EXPECT_EQ(fn["fw_version"], new_version) << fn.dump(2);
  } else {
    EXPECT_TRUE(fn["fw_version"].is_null()) << fn.dump(2);
  }

  if (f.flash_over_pci) {
    const auto q = flint({"-d", "03:00.0", "q"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_EQ(query_field(q.out, "FW Version"), new_version) << q.out;
    EXPECT_EQ(query_field(q.out, "FW Version(Running)"), f.running_over_pci ? new_version : "") << q.out;
  }

  stop_server();
  EXPECT_EQ(saved_running_version(dev), new_version) << "the reset booted the new image";
}

INSTANTIATE_TEST_SUITE_P(Families, MstResetFamily,
                         ::testing::Values(Family{.model = "connectx3"}, Family{.model = "connectx4"},
                                           Family{.model = "spectrum"},
                                           Family{.model = "spectrum2", .burn_over_pci = false},
                                           Family{.model = "switchx", .running_over_pci = false},
                                           Family{.model = "mt25204", .running_over_pci = false},
                                           Family{.model = "mt25208", .burn_over_pci = false, .running_over_pci = false,
                                                  .serve_args = {"--no-bar"}},
                                           Family{.model = "mt23108", .burn_over_pci = false, .running_over_pci = false,
                                                  .serve_args = {"--no-bar"}},
                                           Family{.model = "mt47396", .burn_over_pci = false, .flash_over_pci = false,
                                                  .running_over_pci = false, .serve_args = {"--no-bar"}}),
                         [](const ::testing::TestParamInfo<Family>& param) { return param.param.model; });

}  // namespace
}  // namespace openflint::test
