// Hostile answers: dc on a broken image is a bad image (3), two creates on one path, a burn nobody confirmed.
#include <thread>

#include "image/GphSections.h"
#include "tests/hostile/HostileFixture.h"

namespace openflint::test {
namespace {

namespace fs = std::filesystem;

const std::string kSamples = std::string(OPENFLINT_SOURCE_DIR) + "/firmware-samples/connectx3/";

// An image without its configuration section is a fault of the image: exit 3, like any other
// damage dc finds — 4 is for files and devices that cannot be read.
TEST_F(HostileTest, DumpConfigOfABrokenImageIsABadImage) {
  const HostileRun none = run_hostile("flint", {"-i", write("no-conf.bin", hostile_fs2_image()), "dc"});
  expect_refused(none, 3, "FW_CONF");

  // Generated damage to an image that has one: truncations and flipped bytes all over it.
  const HostileRun gen = run_hostile(
      "fwburn", {"-fw", kSamples + "new.fwdesc", "-conf", kSamples + "new.ini", "-wrimage", path("good.bin")});
  ASSERT_EQ(gen.result.exit_code, 0) << gen.result.err;
  const std::vector<std::uint8_t> good = read_file(path("good.bin"));
  ASSERT_EQ(run_hostile("flint", {"-i", path("good.bin"), "dc"}).result.exit_code, 0);
  int cases = 0;
  for (std::size_t i = 1; i <= 24; ++i) {
    std::vector<std::uint8_t> bad = good;
    const bool truncated = i % 2 == 0;
    if (truncated) {
      bad.resize(good.size() * i / 25);
    } else {
      for (std::size_t at = i * 131; at < bad.size(); at += bad.size() / 7 + i) bad[at] ^= 0xa5;
    }
    const HostileRun r = run_hostile("flint", {"-i", write("bad.bin", bad), "dc"});
    SCOPED_TRACE("case " + std::to_string(i) + ": " + std::to_string(bad.size()) + " bytes");
    if (truncated) {
      expect_refused(r, 3, "-E-");  // a cut image is always refused, as a bad image
    } else {
      // A flipped byte outside what dc reads may leave the configuration readable.
      expect_orderly(r);
      EXPECT_TRUE(r.result.exit_code == 0 || r.result.exit_code == 3) << "exit " << r.result.exit_code << "\n"
                                                                       << r.result.err;
    }
    ++cases;
  }
  RecordProperty("cases", cases + 1);
}

// Two `hcasim create` racing on one path: exactly one makes the device, the other fails.
TEST_F(HostileTest, ConcurrentCreatesOnOnePathExactlyOneSucceeds) {
  const std::string img = write("factory.img", hostile_fs2_image());
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const std::string sim = path("race" + std::to_string(round));
    const std::vector<std::string> argv{bin("hcasim").string(), "create", "--model", "connectx3", sim,
                                        "--flash", "N25Q032A", "--image", img};
    CommandResult first;
    CommandResult second;
    std::thread a([&] { first = run_command(argv); });
    std::thread b([&] { second = run_command(argv); });
    a.join();
    b.join();
    const int ok = (first.exit_code == 0 ? 1 : 0) + (second.exit_code == 0 ? 1 : 0);
    EXPECT_EQ(ok, 1) << "exits " << first.exit_code << " and " << second.exit_code << "\n" << first.err << second.err;
    const CommandResult& loser = first.exit_code == 0 ? second : first;
    EXPECT_TRUE(loser.exit_code == 2 || loser.exit_code == 5) << loser.exit_code << " " << loser.err;
    EXPECT_NE(loser.err.find("-E-"), std::string::npos) << loser.err;
    EXPECT_EQ(run_command({bin("hcasim").string(), "show", sim}).exit_code, 0);
  }
}

// Without a terminal nobody can answer the burn question: the answer is "no" unless -y, and
// the flash stays byte for byte as it was.
TEST_F(HostileTest, BurnWithoutATerminalIsAnsweredNo) {
  const std::string dev = create_device();
  const std::vector<std::uint8_t> before = flash_of();
  const std::string newer = write("newer.bin", hostile_fs2_image(43));
  const std::string older = write("older.bin", hostile_fs2_image(41));
  for (const std::string& img : {newer, older}) {
    const HostileRun r = run_hostile("flint", {"-d", dev, "-i", img, "burn"});  // stdin is /dev/null
    expect_refused(r, 7, "without a terminal");
    EXPECT_EQ(flash_of(), before) << r.command << ": an unconfirmed burn changed the flash";
    const HostileRun no = run_hostile("flint", {"-d", dev, "-i", img, "burn", "--no"});
    expect_orderly(no);
    EXPECT_EQ(no.result.exit_code, 7) << no.result.err;
    EXPECT_EQ(flash_of(), before) << no.command;
  }
  const HostileRun yes = run_hostile("flint", {"-d", dev, "-i", newer, "burn", "-y"});
  EXPECT_EQ(yes.result.exit_code, 0) << yes.result.err;
  EXPECT_NE(flash_of(), before) << "-y should have burned";
}

}  // namespace
}  // namespace openflint::test
