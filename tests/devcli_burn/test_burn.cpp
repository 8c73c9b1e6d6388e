// test_burn: `flint -d sim:PATH -i IMG burn` end to end. Skips (saying so) while flint is built
// without fwops' burn_image (the failsafe burner is developed on another branch).
#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

class BurnTest : public DevcliTest {
 protected:
  void SetUp() override {
    const auto probe = flint({"-d", "sim:/nonexistent", "-i", "/nonexistent", "burn"});
    if (probe.err.find("burn is not in this build") != std::string::npos) {
      GTEST_SKIP() << "flint was built without the failsafe burner (fwops burn_image): " << probe.err;
    }
  }
  std::string fw_running() {
    return parse_json(hcasim({"show", dev_path(), "--json"}))["running"]["fw_version"].get<std::string>();
  }
};

TEST_F(BurnTest, NewerImageBurnsAndRunsAfterReset) {
  create("connectx4", fs3_image(2000));
  const auto r = flint({"-d", dev(), "-i", write("new.bin", fs3_image(2001)), "burn", "-y", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = parse_json(r);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["new_fw_version"], "12.2001.1010");
  EXPECT_EQ(j["previous_fw_version"], "12.2000.1010");
  const auto q = parse_json(flint({"-d", dev(), "q", "--json"}));
  EXPECT_EQ(q["fw_version"], "12.2001.1010");
  EXPECT_EQ(q["running"]["fw_version"], "12.2000.1010");
  ASSERT_EQ(flint({"-d", dev(), "reset"}).exit_code, 0);
  EXPECT_EQ(fw_running(), "12.2001.1010");
  EXPECT_EQ(flint({"-d", dev(), "v"}).exit_code, 0);
}

TEST_F(BurnTest, RefusesAnImageForOtherDevices) {
  create("connectx4", fs3_image(2000));
  const auto r = flint({"-d", dev(), "-i", write("cx3.bin", fs2_image()), "burn", "-y"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("ConnectX-4"), std::string::npos) << r.err;  // names why it does not fit
  EXPECT_EQ(parse_json(flint({"-d", dev(), "q", "--json"}))["fw_version"], "12.2000.1010");
}

TEST_F(BurnTest, PsidChangeNeedsTheFlag) {
  create("connectx4", fs3_image(2000));
  const std::string other = write("other.bin", fs3_image(2001, "MT_0000000042"));
  auto r = flint({"-d", dev(), "-i", other, "burn"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--allow_psid_change"), std::string::npos) << r.err;
  r = flint({"-d", dev(), "-i", other, "burn", "--allow_psid_change", "-y"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto q = flint({"-d", dev(), "q", "--json"});
  EXPECT_EQ(parse_json(q)["psid"], "MT_0000000042") << q.out << q.err;
}

TEST_F(BurnTest, SameOrOlderVersionAsks) {
  create("connectx4", fs3_image(2001));
  const std::string older = write("older.bin", fs3_image(2000));
  auto r = flint({"-d", dev(), "-i", older, "burn"});  // stdin is not a terminal: the answer is no
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_NE(r.err.find("--yes"), std::string::npos) << r.err;
  r = flint({"-d", dev(), "-i", older, "burn", "--no"});
  EXPECT_EQ(r.exit_code, 7) << r.err;
  r = flint({"-d", dev(), "-i", older, "burn", "--yes"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(parse_json(flint({"-d", dev(), "q", "--json"}))["fw_version"], "12.2000.1010");
}

TEST_F(BurnTest, UpgradeIsAskedTooAndNoTerminalMeansNo) {
  create("connectx4", fs3_image(2000));
  const auto r = flint({"-d", dev(), "-i", write("new.bin", fs3_image(2001)), "burn"});
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_NE(r.err.find("--yes"), std::string::npos) << r.err;
  EXPECT_EQ(parse_json(flint({"-d", dev(), "q", "--json"}))["fw_version"], "12.2000.1010");
}

TEST_F(BurnTest, NonFailsafeBurn) {
  create("connectx4", fs3_image(2000));
  const auto r = flint({"-d", dev(), "-i", write("new.bin", fs3_image(2001)), "burn", "--nofs", "-y"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(flint({"-d", dev(), "v"}).exit_code, 0);
}

TEST_F(BurnTest, PowerCutDuringBurnLeavesABootableDevice) {
  for (const std::string cut : {"1", "3", "10", "30", "100"}) {
    SCOPED_TRACE("power cut after op " + cut);
    const std::string name = "cut" + cut;
    create("connectx4", fs3_image(2000), name);
    ASSERT_EQ(hcasim({"fault", dev_path(name), "--power-cut-after-ops", cut}).exit_code, 0);
    flint({"-d", dev(name), "-i", write(name + "-new.bin", fs3_image(2001)), "burn", "-y"});
    ASSERT_EQ(hcasim({"power-on", dev_path(name)}).exit_code, 0);
    const auto j = parse_json(hcasim({"show", dev_path(name), "--json"}));
    EXPECT_EQ(j["running"]["recovery"], false);
    const std::string v = j["running"]["fw_version"].is_string() ? j["running"]["fw_version"].get<std::string>() : "";
    EXPECT_TRUE(v == "12.2000.1010" || v == "12.2001.1010") << v;
  }
}

}  // namespace
}  // namespace openflint::test
