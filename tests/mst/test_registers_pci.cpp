// mst mread/mwrite/dump over a served sysfs PCI tree (hcasim pci-serve): BAR and config space give
// the same values, a whole-device dump (--full) over the BAR takes well under a second (measured
// and printed), and config space works for the 0x58 window (ConnectX-3) too.
#include <chrono>

#include "core/HexString.h"
#include "tests/pci_cli/PciServeFixture.h"

namespace openflint::test {
namespace {

class MstRegistersPci : public PciServeFixture {
 protected:
  std::filesystem::path create_blank(const std::string& name, const std::string& model) {
    const auto d = dir_ / name;
    const auto r = run_tool("hcasim", {"create", "--model", model, d.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return d;
  }
  CommandResult mst(std::vector<std::string> args) const {
    args.insert(args.begin(), bin("mst").string());
    return run_command(args, tool_env());
  }
};

TEST_F(MstRegistersPci, ConnectX4BarAndConfigSpaceAgreeAndAFullDumpIsFast) {
  const auto dev = create_blank("cx4", "connectx4");
  for (std::uint32_t a = 0; a < 0x40; a += 4)  // distinctive values, in the model before serving
    ASSERT_EQ(run_tool("mst", {"mwrite", "sim:" + dev.string(), hex_string(a), hex_string(0xa5a50000u | a)}).exit_code, 0);
  if (!serve({dev})) return;

  const auto bar = mst({"mread", "pcicr-03:00.0", "0x0", "16"});
  ASSERT_EQ(bar.exit_code, 0) << bar.err;
  EXPECT_EQ(mst({"mread", "pciconf-03:00.0", "0x0", "16"}).out, bar.out);
  EXPECT_NE(bar.out.find("0x0000003c 0xa5a5003c\n"), std::string::npos) << bar.out;
  EXPECT_EQ(mst({"mread", "03:00.0", "0xf0014"}).out, "0x000f0014 0x00000209\n");

  const auto start = std::chrono::steady_clock::now();
  const auto full = mst({"dump", "pcicr-03:00.0", "--full"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(full.exit_code, 0) << full.err;
  const auto lines = std::count(full.out.begin(), full.out.end(), '\n');
  std::cout << "[ mst dump --full ] connectx4 over the BAR: " << lines << " dwords in " << seconds << " s\n";
  RecordProperty("dump_full_bar_seconds", std::to_string(seconds));
  EXPECT_GT(lines, 30000);
  EXPECT_LT(seconds, 1.0);

  const auto cfg = mst({"dump", "pciconf-03:00.0"});
  ASSERT_EQ(cfg.exit_code, 0) << cfg.err;
  EXPECT_EQ(mst({"dump", "pcicr-03:00.0"}).out, cfg.out);

  // Writes: over the BAR and over config space, each read back the same way.
  ASSERT_EQ(mst({"mwrite", "pcicr-03:00.0", "0x100", "0x01020304"}).exit_code, 0);
  EXPECT_EQ(mst({"mread", "pcicr-03:00.0", "0x100"}).out, "0x00000100 0x01020304\n");
  ASSERT_EQ(mst({"mwrite", "pciconf-03:00.0", "0x104", "0x05060708"}).exit_code, 0);
  EXPECT_EQ(mst({"mread", "pciconf-03:00.0", "0x104"}).out, "0x00000104 0x05060708\n");
  // Outside the CR-space (16 MiB) although inside the 64 MiB BAR: refused before any access.
  const auto out = mst({"mread", "pcicr-03:00.0", "0x1000000"});
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("outside the CR-space"), std::string::npos) << out.err;
}

TEST_F(MstRegistersPci, ConnectX3ThroughTheConfigWindow) {
  const auto dev = create_blank("cx3", "connectx3");
  if (!serve({dev}, {"--bdf", "0000:04:00.0", "--no-bar"})) return;
  EXPECT_EQ(mst({"mread", "04:00.0", "0xf0014"}).out, "0x000f0014 0x000001f5\n");
  ASSERT_EQ(mst({"mwrite", "04:00.0", "0xf0380", "0xcafe"}).exit_code, 0);
  const auto d = mst({"dump", "04:00.0", "-v"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("0x000f0380 0x0000cafe\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("# 0x000f03fc flash_semaphore not read"), std::string::npos) << d.out;
  EXPECT_EQ(d.out.find("0x000f03fc 0x"), std::string::npos);
}

}  // namespace
}  // namespace openflint::test
