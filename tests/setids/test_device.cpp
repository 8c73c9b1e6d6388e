// sg / sv on simulated devices (hcasim) holding the ConnectX-3 (FS2) and ConnectX-4 (FS3)
// samples: after the command `q` shows the new values and `v` passes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/fwburn/Samples.h"

namespace openflint {
namespace {

test::CommandResult tool(const std::string& name, std::vector<std::string> args) {
  args.insert(args.begin(), test::bin(name).string());
  return test::run_command(args);
}

class SetIdsDevice : public ::testing::TestWithParam<std::string> {
 protected:
  // A sim of model GetParam() factory-burned with that model's "old" sample image.
  void SetUp() override {
    const std::string model = GetParam();
    test::Sample sample{model, "old", test::samples_dir() / model / "old.fwdesc", test::samples_dir() / model / "old.ini"};
    const auto image = (dir_ / "img.bin").string();
    const auto gen = test::run_fwburn(sample, image);
    ASSERT_EQ(gen.exit_code, 0) << gen.out << gen.err;
    dev_ = "sim:" + (dir_ / "dev").string();
    const auto r = tool("hcasim", {"create", "--model", model, (dir_ / "dev").string(), "--image", image});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  nlohmann::json query() {
    const auto q = tool("flint", {"-d", dev_, "--json", "q"});
    EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
    auto j = nlohmann::json::parse(q.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << q.out;
    return j;
  }
  void expect_verifies() {
    const auto v = tool("flint", {"-d", dev_, "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  }
  test::TempDir dir_;
  std::string dev_;
};

TEST_P(SetIdsDevice, SgThenQueryShowsTheNewGuidsAndMacs) {
  const bool has_macs = GetParam() != "mt25204";  // FS1 images carry GUIDs only
  std::vector<std::string> args{"-d", dev_, "-y", "sg", "0x0002c90300fedcb0"};
  if (has_macs) args.push_back("0x0002c9fedcb0");
  const auto sg = tool("flint", args);
  ASSERT_EQ(sg.exit_code, 0) << sg.out << sg.err;
  EXPECT_NE(sg.out.find("0x0002c90300fedcb0"), std::string::npos) << sg.out;
  const auto q = query();
  EXPECT_EQ(q["base_guid"]["base"], "0x0002c90300fedcb0") << q.dump(2);
  if (has_macs) {
    EXPECT_EQ(q["base_mac"]["base"], "0x00000002c9fedcb0") << q.dump(2);
  }
  expect_verifies();
}

TEST_P(SetIdsDevice, SvThenQueryShowsTheVsd) {
  const auto sv = tool("flint", {"-d", dev_, "--json", "sv", "board 42 sv"});
  ASSERT_EQ(sv.exit_code, 0) << sv.out << sv.err;
  auto doc = nlohmann::json::parse(sv.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << sv.out;
  EXPECT_EQ(doc["ok"], true);
  const auto q = query();
  const std::string field = GetParam() == "connectx4" ? "device_vsd" : "image_vsd";
  EXPECT_EQ(q[field], "board 42 sv") << q.dump(2);
  expect_verifies();
}

TEST_P(SetIdsDevice, OversizeVsdLeavesTheDeviceAlone) {
  const auto before = query();
  const auto sv = tool("flint", {"-d", dev_, "sv", std::string(300, 'z')});
  EXPECT_EQ(sv.exit_code, 2) << sv.out << sv.err;
  const auto after = query();
  EXPECT_EQ(after["image_vsd"], before["image_vsd"]);
  EXPECT_EQ(after["device_vsd"], before["device_vsd"]);
  expect_verifies();
}

INSTANTIATE_TEST_SUITE_P(Sims, SetIdsDevice, ::testing::Values("mt25204", "connectx3", "connectx4"));

}  // namespace
}  // namespace openflint
