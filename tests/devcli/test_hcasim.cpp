// test_hcasim: hcasim create / show / fault / power-on / set-temperature and its errors, through the real binary.
#include "tests/devcli/DevcliFixture.h"

namespace openflint::test {
namespace {

TEST_F(DevcliTest, CreateBlankComesUpInRecoveryMode) {
  create("connectx4", {});
  const auto r = hcasim({"show", dev_path(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = parse_json(r);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["powered"], true);
  EXPECT_EQ(j["running"]["recovery"], true);
  EXPECT_EQ(j["hw_id"], "0x209");
  EXPECT_EQ(j["pci_device_id"], 4115);
  EXPECT_EQ(j["flash_chip"], "N25Q032A");
  EXPECT_EQ(j["counters"]["erases"], 0);
  const auto text = hcasim({"show", dev_path()});
  EXPECT_NE(text.out.find("flash recovery mode"), std::string::npos) << text.out;
}

TEST_F(DevcliTest, CreateWithImageBootsIt) {
  create("connectx4", fs3_image());
  const auto j = parse_json(hcasim({"show", dev_path(), "--json"}));
  EXPECT_EQ(j["running"]["recovery"], false);
  EXPECT_EQ(j["running"]["fw_version"], "12.2000.1010");
  EXPECT_EQ(j["running"]["psid"], "MT_2190110032");
  EXPECT_EQ(j["running"]["booted_copy"], "0x0");
}

TEST_F(DevcliTest, PowerCutThenPowerOn) {
  create("connectx3", fs2_image());
  ASSERT_EQ(hcasim({"fault", dev_path(), "--power-cut-after-ops", "1"}).exit_code, 0);
  const auto ww = flint({"-d", dev(), "ww", "0x100000", "0x12345678"});  // blank area: one program op
  EXPECT_EQ(ww.exit_code, 4) << ww.out << ww.err;
  EXPECT_NE(ww.err.find("powered off"), std::string::npos) << ww.err;
  auto j = parse_json(hcasim({"show", dev_path(), "--json"}));
  EXPECT_EQ(j["powered"], false);
  EXPECT_EQ(j["counters"]["programs"], 1);
  const auto q = flint({"-d", dev(), "q"});
  EXPECT_EQ(q.exit_code, 4) << q.out << q.err;
  EXPECT_NE(q.err.find("powered off"), std::string::npos) << q.err;
  ASSERT_EQ(hcasim({"power-on", dev_path()}).exit_code, 0);
  j = parse_json(hcasim({"show", dev_path(), "--json"}));
  EXPECT_EQ(j["powered"], true);
  EXPECT_EQ(j["running"]["fw_version"], "2.42.5000");
  EXPECT_EQ(j["power_cut_after_ops"], 0);
  const auto rw = flint({"-d", dev(), "rw", "0x100000"});
  EXPECT_EQ(rw.exit_code, 0) << rw.err;
  EXPECT_EQ(rw.out, "0x12345678\n");  // the op before the cut took effect
}

// set-temperature: what MTMP sensor 0 reads (tests/fabric_health reads it over the fabric).
TEST_F(DevcliTest, SetTemperatureIsSavedAndShown) {
  create("connectx4", {});
  EXPECT_EQ(parse_json(hcasim({"show", dev_path(), "--json"}))["temperature_c"], 45);  // a new device
  const auto set = hcasim({"set-temperature", dev_path(), "97", "--json"});
  ASSERT_EQ(set.exit_code, 0) << set.err;
  EXPECT_EQ(parse_json(set)["temperature_c"], 97);
  EXPECT_EQ(parse_json(hcasim({"show", dev_path(), "--json"}))["temperature_c"], 97);
  EXPECT_NE(hcasim({"show", dev_path()}).out.find("Temperature:           97 C"), std::string::npos);
  EXPECT_EQ(hcasim({"set-temperature", dev_path(), "256"}).exit_code, 2);
  EXPECT_EQ(hcasim({"set-temperature", dev_path(), "-1"}).exit_code, 2);
  EXPECT_EQ(hcasim({"set-temperature", dev_path()}).exit_code, 2);
  EXPECT_EQ(hcasim({"set-temperature", dev_path("missing"), "50"}).exit_code, 4);
  EXPECT_EQ(parse_json(hcasim({"show", dev_path(), "--json"}))["temperature_c"], 97);  // refused sets change nothing
}

TEST_F(DevcliTest, HcasimErrorsAreClear) {
  auto r = hcasim({"create", "--model", "connectx99", dev_path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("connectx4"), std::string::npos) << r.err;  // lists the models
  create("spectrum", {});
  r = hcasim({"create", "--model", "spectrum", dev_path()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("already holds"), std::string::npos) << r.err;
  r = hcasim({"show", dev_path("missing")});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("no simulated device"), std::string::npos) << r.err;
  r = hcasim({"create", "--model", "spectrum2", dev_path("s2"), "--image", dev_path("nope.bin")});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  r = hcasim({"create", "--model", "spectrum2", dev_path("s3"), "--flash", "NOPE"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("NOPE"), std::string::npos) << r.err;
  r = hcasim({"show", dev_path("missing"), "--json"});
  const auto missing = parse_json(r);
  EXPECT_EQ(missing["ok"], false);
  EXPECT_EQ(missing["error"]["code"], "not found") << missing.dump(2);  // the shared error document
  EXPECT_EQ(r.exit_code, 4) << r.err;
  r = hcasim({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
}

}  // namespace
}  // namespace openflint::test
