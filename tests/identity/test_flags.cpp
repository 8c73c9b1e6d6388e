// mstflint's identity flags on flint burn: each changes exactly what it names; contradictory or
// format-foreign combinations are refused with one line and the flash untouched.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "image/FirmwareImage.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

test::CommandResult flint(std::vector<std::string> args) {
  args.insert(args.begin(), test::bin("flint").string());
  return test::run_command(args);
}

fs::path sample(const std::string& name) {
  return fs::path(OPENFLINT_BIN_DIR).parent_path() / "firmware-samples" / (name + ".bin");
}

class IdentityFlags : public ::testing::Test {
 protected:
  std::string make(const std::string& model) {
    const auto dir = dir_ / model;
    const auto c = test::run_command({test::bin("hcasim").string(), "create", "--model", model, dir.string(),
                                      "--image", sample(model + "-old").string()});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    return "sim:" + dir.string();
  }
  fs::path flash_of(const std::string& dev) const { return fs::path(dev.substr(4)) / "flash.bin"; }
  // The GUID-section entries of the image the device holds now (read back with ri).
  std::vector<std::uint64_t> uids(const std::string& dev) {
    const auto out = dir_ / "ri.bin";
    const auto r = flint({"-d", dev, "ri", out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto q = query_image(test::read_file(out));
    EXPECT_TRUE(q.has_value());
    return q ? q->uids : std::vector<std::uint64_t>{};
  }
  test::TempDir dir_;
};

TEST_F(IdentityFlags, GuidsAndMacsGivenOneByOneAreBurnedExactlyThenKept) {
  const auto dev = make("connectx3");
  const auto r = flint({"-d", dev, "-i", sample("connectx3-new").string(), "-y", "--guids", "0x11", "0x22", "0x33",
                        "0x44", "--macs", "0x0002c9000055", "0x0002c9000066", "--vsd", "given vsd", "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::vector<std::uint64_t> want{0x11, 0x22, 0x33, 0x44, 0x0002c9000055, 0x0002c9000066};
  auto got = uids(dev);
  got.resize(want.size());
  EXPECT_EQ(got, want);
  // A later default burn (of the old image) keeps all six entries and the VSD.
  const auto again = flint({"-d", dev, "-i", sample("connectx3-old").string(), "-y", "burn"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  got = uids(dev);
  got.resize(want.size());
  EXPECT_EQ(got, want);
  const auto q = flint({"-d", dev, "--json", "q"});
  EXPECT_EQ(nlohmann::json::parse(q.out)["image_vsd"], "given vsd") << q.out;
}

TEST_F(IdentityFlags, BlankGuidsAndSilentAndLog) {
  const auto dev = make("mt25204");
  const auto log = dir_ / "burn.log";
  const auto r = flint({"-d", dev, "-i", sample("mt25204-new").string(), "-y", "--blank_guids", "-s", "--log",
                        log.string(), "burn"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  for (const auto u : uids(dev)) EXPECT_EQ(u, ~std::uint64_t{0});
  const auto text = test::read_file(log);
  const std::string s(text.begin(), text.end());
  EXPECT_NE(s.find("GUIDs/MACs from the blank"), std::string::npos) << s;
  EXPECT_NE(s.find("done: FW"), std::string::npos) << s;
}

// mstflint's --no_flash_verify: accepted by burn (and bb); the burn still leaves a device that
// verifies and keeps its identity.
TEST_F(IdentityFlags, NoFlashVerifyIsAcceptedAndTheBurnStillVerifies) {
  for (const std::string model : {"connectx3", "connectx4"}) {
    const auto dev = make(model);
    const auto before = uids(dev);
    const auto r = flint({"-d", dev, "-i", sample(model + "-new").string(), "-y", "--no_flash_verify", "burn"});
    ASSERT_EQ(r.exit_code, 0) << model << ": " << r.out << r.err;
    EXPECT_EQ(uids(dev), before) << model;
    const auto v = flint({"-d", dev, "v"});
    EXPECT_EQ(v.exit_code, 0) << model << ": " << v.out << v.err;
    const auto q = flint({"-d", dev, "--json", "q"});
    EXPECT_EQ(nlohmann::json::parse(q.out)["fw_version"],
              nlohmann::json::parse(flint({"-i", sample(model + "-new").string(), "--json", "q"}).out)["fw_version"]);
  }
  const std::string dev = "sim:" + (dir_.path() / "connectx3").string();  // made above
  const auto bb = flint({"-d", dev, "-i", sample("connectx3-old").string(), "-y", "--no_flash_verify", "bb"});
  EXPECT_EQ(bb.exit_code, 0) << bb.out << bb.err;
  EXPECT_EQ(flint({"-d", dev, "v"}).exit_code, 0);
}

TEST_F(IdentityFlags, ContradictionsAreRefusedAndTheFlashIsUntouched) {
  const auto cx3 = make("connectx3");
  const auto cx4 = make("connectx4");
  const auto ih = make("mt25204");
  struct Case {
    std::string dev;
    std::vector<std::string> flags;
    int exit_code;
    std::string says;
  };
  const std::vector<Case> cases{
      {cx3, {"--guid", "0x1", "--guids", "1", "2", "3", "4"}, 2, "cannot be combined"},
      {cx3, {"--mac", "0x1", "--macs", "1", "2"}, 2, "cannot be combined"},
      {cx3, {"--blank_guids", "--use_image_guids"}, 2, "cannot be combined"},
      {cx3, {"--use_image_guids", "--guid", "0x5"}, 2, "cannot be combined"},
      {cx3, {"--vsd", "x", "--use_image_ps"}, 2, "cannot be combined"},
      {cx3, {"--ignore_dev_data"}, 2, "FS3/FS4"},
      {cx3, {"--mac", "0x1000000000000"}, 2, "48 bits"},
      {cx3, {"--guid", "zz"}, 2, "not a hex number"},
      {ih, {"--mac", "0x1"}, 2, "no MACs"},
      {cx4, {"--guids", "1", "2", "3", "4"}, 6, "--uid"},
      {cx4, {"--blank_guids"}, 6, "--blank_guids"},
      {cx4, {"--mac", "0x010000000000"}, 2, "multicast"},
      {cx4, {"--use_image_ps"}, 2, "--ignore_dev_data"},
  };
  for (const auto& c : cases) {
    const auto before = test::read_file(flash_of(c.dev));
    std::vector<std::string> args{"-d", c.dev, "-i", sample("connectx3-new").string(), "-y"};
    if (c.dev == cx4) args[3] = sample("connectx4-new").string();
    if (c.dev == ih) args[3] = sample("mt25204-new").string();
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    args.push_back("burn");
    const auto r = flint(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.flags.front() << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.flags.front() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
    EXPECT_EQ(test::read_file(flash_of(c.dev)), before) << c.flags.front() << ": a refused burn wrote";
  }
}

}  // namespace
}  // namespace openflint
