// Hostile inputs, class "size": files larger than any flash are refused before they are read, in bounded time and memory.
#include "devices/FlashChip.h"
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

const std::string kSamples = std::string(OPENFLINT_SOURCE_DIR) + "/firmware-samples/connectx3/";

// Sizes just past each bound and far past it (a sparse 2 GiB file, as a disk image or a dump
// of the wrong device would be): read whole, each would exceed the 256 MiB memory bound.
std::vector<std::uint64_t> oversizes() {
  return {largest_flash_size() + 1, std::uint64_t{2} << 30};
}

TEST_F(HostileTest, ImagesLargerThanAnyFlashAreRefusedBeforeReading) {
  const std::string dev = create_device();
  const std::vector<std::uint8_t> before = flash_of();
  for (std::uint64_t size : oversizes()) {
    const std::string big = sparse_file("big-" + std::to_string(size) + ".bin", size);
    SCOPED_TRACE("size " + std::to_string(size));
    const std::vector<std::vector<std::string>> cases = {
        {"flint", "-i", big, "q"},
        {"flint", "-i", big, "v"},
        {"flint", "-i", big, "sg", "0x0002c90300000001"},
        {"flint", "-d", dev, "-i", big, "burn", "-y"},
        {"flint", "-d", dev, "wb", big, "0x0"},
        {"fwburn", "-image", big, "-dev", dev},
    };
    for (const auto& argv : cases) {
      expect_refused(run_hostile(argv[0], {argv.begin() + 1, argv.end()}), 2, "-byte limit");
    }
  }
  EXPECT_EQ(flash_of(), before);
}

TEST_F(HostileTest, FactoryImageLargerThanTheSimulatedFlashIsRefused) {
  // 4 MiB flash: one byte more does not fit; nothing is created.
  const std::string big = sparse_file("big.bin", 4 * 1024 * 1024 + 1);
  const HostileRun run = run_hostile(
      "hcasim", {"create", "--model", "connectx3", path("dev"), "--flash", "N25Q032A", "--image", big});
  expect_refused(run, 2, "-byte limit");
  EXPECT_FALSE(std::filesystem::exists(path("dev"))) << "a refused create left a device behind";
}

TEST_F(HostileTest, IniAndSectionFilesAreBounded) {
  const std::string big = sparse_file("big.ini", std::uint64_t{2} << 30);
  expect_refused(run_hostile("fwburn", {"-fw", kSamples + "new.fwdesc", "-conf", big, "-wrimage", path("o.bin")}), 2,
                 "-byte limit");
  expect_refused(run_hostile("fwburn", {"-fw", big, "-conf", kSamples + "new.ini", "-wrimage", path("o.bin")}), 2,
                 "-byte limit");
  EXPECT_FALSE(std::filesystem::exists(path("o.bin")));
}

TEST_F(HostileTest, SimulatedFlashFileLargerThanItsChipIsRefused) {
  const std::string dev = create_device();
  // flash.bin replaced by a sparse 2 GiB file: loading the device must not read it whole.
  std::filesystem::resize_file(dir_ / "dev" / "flash.bin", std::uint64_t{2} << 30);
  expect_refused(run_hostile("flint", {"-d", dev, "q"}), 2, "-byte limit");
  expect_refused(run_hostile("hcasim", {"show", path("dev")}), 2, "-byte limit");
}

}  // namespace
}  // namespace openflint::test
