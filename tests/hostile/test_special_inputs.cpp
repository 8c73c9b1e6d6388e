// Hostile inputs, class "special file": every tool refuses a non-regular input before reading it, and changes no flash.
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

const std::string kSamples = std::string(OPENFLINT_SOURCE_DIR) + "/firmware-samples/connectx3/";

// Every place a tool takes an input file, with X standing for the hostile path.
std::vector<std::vector<std::string>> input_positions(const std::string& dev, const std::string& x,
                                                      const std::string& out) {
  return {
      {"flint", "-i", x, "q"},
      {"flint", "-i", x, "v"},
      {"flint", "-i", x, "dc"},
      {"flint", "-i", x, "sg", "0x0002c90300000001"},
      {"flint", "-d", dev, "-i", x, "burn", "-y"},
      {"flint", "-d", dev, "wb", x, "0x0"},
      {"fwburn", "-image", x, "-dev", dev},
      {"fwburn", "-fw", x, "-conf", kSamples + "new.ini", "-wrimage", out},
      {"fwburn", "-fw", kSamples + "new.fwdesc", "-conf", x, "-wrimage", out},
      {"hcasim", "create", "--model", "connectx3", out + ".sim", "--flash", "N25Q032A", "--image", x},
  };
}

TEST_F(HostileTest, SpecialFilesAsInputsAreRefusedAndChangeNothing) {
  const std::string dev = create_device();
  const std::vector<std::uint8_t> before = flash_of();
  ASSERT_FALSE(before.empty());
  int cases = 0;
  for (const SpecialFile& special : special_files()) {
    for (const auto& argv : input_positions(dev, special.path, path("out.bin"))) {
      const std::vector<std::string> args(argv.begin() + 1, argv.end());
      SCOPED_TRACE(special.kind + " " + special.path);
      const HostileRun run = run_hostile(argv[0], args);
      expect_refused(run, 4, "not a regular file");
      EXPECT_NE(run.result.err.find(special.kind), std::string::npos) << run.command << "\n" << run.result.err;
      EXPECT_FALSE(std::filesystem::exists(path("out.bin"))) << run.command;
      EXPECT_FALSE(std::filesystem::exists(path("out.bin.sim"))) << run.command << ": a refused create left a device";
      ++cases;
    }
  }
  EXPECT_EQ(flash_of(), before) << "a refused command changed the flash";
  RecordProperty("cases", cases);
}

// The same tools under the same limits accept the regular file: the refusals above are about
// the kind of file, not a limit every input fails.
TEST_F(HostileTest, RegularInputsStillWorkUnderTheLimits) {
  const std::string dev = create_device();
  const std::string img = write("good.img", hostile_fs2_image(43));
  expect_orderly(run_hostile("flint", {"-i", img, "v"}));
  EXPECT_EQ(run_hostile("flint", {"-i", img, "q"}).result.exit_code, 0);
  const HostileRun burn = run_hostile("flint", {"-d", dev, "-i", img, "burn", "-y"});
  EXPECT_EQ(burn.result.exit_code, 0) << burn.result.out << burn.result.err;
  const HostileRun gen =
      run_hostile("fwburn", {"-fw", kSamples + "new.fwdesc", "-conf", kSamples + "new.ini", "-wrimage", path("g.bin")});
  EXPECT_EQ(gen.result.exit_code, 0) << gen.result.out << gen.result.err;
}

}  // namespace
}  // namespace openflint::test
