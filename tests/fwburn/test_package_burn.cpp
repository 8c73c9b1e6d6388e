// fwburn -image PACKAGE -dev DEVICE: an MFA2 package (or MFA archive) is told apart by content and the device's own PSID picks the board.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "image/MfaWriter.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

test::CommandResult fwburn_run(const std::vector<std::string>& args) {
  std::vector<std::string> argv{test::bin("fwburn").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run_command(argv);
}

nlohmann::json query_json(const std::vector<std::string>& args) {
  auto q = test::run_tool("flint", args);
  EXPECT_EQ(q.exit_code, 0) << q.err;
  return nlohmann::json::parse(q.out, nullptr, false);
}

class FwburnPackage : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"connectx4-old", "connectx4-new", "connectx5-new"})
      if (!std::filesystem::exists(test::sample_image(name))) GTEST_SKIP() << "sample " << name << " not built";
    const auto r = test::run_tool("hcasim", {"create", "--model", "connectx4", (dir_ / "cx4").string(), "--image",
                                             test::sample_image("connectx4-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  test::TempDir dir_;
  std::string sim_ = "sim:" + (dir_ / "cx4").string();
};

TEST_F(FwburnPackage, Mfa2BurnsTheDevicesOwnBoard) {
  const auto package = dir_ / "fw.mfa2";
  auto made = test::run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins",
                                       test::sample_image("connectx5-new").string(),
                                       test::sample_image("connectx4-new").string(), "-o", package.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto r = fwburn_run({"-image", package.string(), "-dev", sim_});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("-I- Burned "), std::string::npos) << r.out;
  const auto expected = query_json({"-i", test::sample_image("connectx4-new").string(), "--json", "q"});
  const auto after = query_json({"-d", sim_, "--json", "q"});
  EXPECT_EQ(after["fw_version"], expected["fw_version"]) << after.dump();
  EXPECT_EQ(after["psid"], expected["psid"]);
}

TEST_F(FwburnPackage, AnMfaArchiveToo) {
  MfaWriter writer;
  for (const char* name : {"connectx5-new", "connectx4-new"}) {
    const auto q = query_json({"-i", test::sample_image(name).string(), "--json", "q"});
    ASSERT_TRUE(writer.add_board({.psid = q.value("psid", ""), .part_number = "PN", .description = "board", .version = {}, .image = test::read_file(test::sample_image(name))}));
  }
  const auto archive = dir_ / "fw.mfa";
  ASSERT_TRUE(writer.write_file(archive.string()));
  const auto r = fwburn_run({"-image", archive.string(), "-dev", sim_});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto expected = query_json({"-i", test::sample_image("connectx4-new").string(), "--json", "q"});
  EXPECT_EQ(query_json({"-d", sim_, "--json", "q"})["fw_version"], expected["fw_version"]);
}

TEST_F(FwburnPackage, APackageWithoutTheDevicesPsidOrWithoutDevIsRefused) {
  const auto before = test::read_file(dir_ / "cx4" / "flash.bin");
  const auto package = dir_ / "cx5.mfa2";
  auto made = test::run_tool("flint", {"archive", "create", "--format", "mfa2", "--bins",
                                       test::sample_image("connectx5-new").string(), "-o", package.string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto psid = query_json({"-d", sim_, "--json", "q"}).value("psid", "");
  const auto r = fwburn_run({"-image", package.string(), "-dev", sim_});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no device with PSID " + psid), std::string::npos) << r.err;
  EXPECT_EQ(test::read_file(dir_ / "cx4" / "flash.bin"), before) << "a refused package wrote to the flash";
  const auto nodev = fwburn_run({"-image", package.string()});
  EXPECT_EQ(nodev.exit_code, 2) << nodev.err;
}

}  // namespace
}  // namespace openflint
