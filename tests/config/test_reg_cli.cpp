// mst reg on simulated devices: registers decoded by field (mstreg's names and table), index
// fields required, read-only fields refused before anything is sent, a set read-modify-written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <regex>

#include "fwops/Device.h"
#include "fwops/registers/RegisterByName.h"
#include "sim/SimDevice.h"
#include "tests/support/TestSupport.h"

namespace openflint::test {
namespace {

using nlohmann::json;

class MstReg : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto r = run_tool("hcasim", {"create", "--model", "connectx4", (dir_ / "cx4").string(), "--image",
                                       sample_image("connectx4-old").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static CommandResult mst(std::vector<std::string> args) { return run_tool("mst", std::move(args)); }
  TempDir dir_;
  std::string sim_ = "sim:" + (dir_ / "cx4").string();
};

TEST_F(MstReg, GetDecodesMgirByField) {
  const auto r = mst({"reg", sim_, "--reg-name", "MGIR", "--get"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("Field Name            | Data    \n" + std::string(35, '=') + "\n")) << r.out;
  EXPECT_NE(r.out.find("\ndevice_id             | 0x00000209\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nnum_ports             | 0x00000002\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nmajor                 | 0x0000000c\n"), std::string::npos) << r.out;
  const auto j = json::parse(mst({"--json", "reg", sim_, "--reg-name", "mgir", "-g"}).out);
  std::string psid;
  for (int i = 0; i < 16; ++i)
    for (const auto& f : j["fields"])
      if (f["name"] == "psid[" + std::to_string(i) + "]" && f["value"] != 0) psid += static_cast<char>(f["value"].get<int>());
  EXPECT_EQ(psid, "MT_2190110032");  // the running image's PSID, byte by byte
}

TEST_F(MstReg, SetReadsModifiesAndWritesAndRefusesWhatItMustNot) {
  auto set = mst({"reg", sim_, "--reg-name", "MFRL", "--set", "reset_trigger=0x8", "-y"});
  ASSERT_EQ(set.exit_code, 0) << set.err;
  EXPECT_NE(set.out.find("reset_trigger          | 0x00000008"), std::string::npos) << set.out;

  struct Case {
    std::vector<std::string> args;
    int exit;
    std::string says;
  };
  for (const auto& c : std::vector<Case>{
           {{"--reg-name", "MNVQC", "--get"}, 2, "index field type must be given"},
           {{"--reg-name", "MFRL", "--set", "reset_type=1", "-y"}, 2, "field reset_type of MFRL is read-only"},
           {{"--reg-name", "MFRL", "--set", "reset_trigger=0x100", "-y"}, 2, "does not fit field reset_trigger (8 bits)"},
           {{"--reg-name", "MFRL", "--set", "bogus=1", "-y"}, 2, "MFRL has no field bogus"},
           {{"--reg-name", "MFRL", "--set", "reset_trigger=x", "-y"}, 2, "reset_trigger 'x' is not a number"},
           {{"--reg-name", "MXYZ", "--get"}, 2, "unknown register MXYZ (known: MGIR, MFRL, MNVQC, MNVGC, MTMP, MTRC_CAP, MTRC_CONF, MTRC_STDB, MTRC_CTRL)"},
           {{"--reg-name", "MFRL"}, 2, "give one of --get and --set"},
           {{"--reg-name", "MFRL", "--set", "reset_trigger=0x40"}, 7, "declined: nothing was sent"},
           {{"--reg-name", "MFRL", "--set", "reset_trigger=0x2", "-y"}, 2, "status 0x7 (bad parameter)"},
       }) {
    std::vector<std::string> args{"reg", sim_};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = mst(args);
    EXPECT_EQ(r.exit_code, c.exit) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

// The library: a set reaches the firmware (MFRL arms the reset), keeping the other fields.
TEST_F(MstReg, LibrarySetArmsTheFirmwareReset) {
  auto device = open_device(sim_);
  ASSERT_TRUE(device) << device.error().message();
  auto port = device->register_port();
  ASSERT_TRUE(port);
  auto layout = find_register_layout("MFRL");
  ASSERT_TRUE(layout);
  auto sent = set_register(**port, **layout, {}, {{"reset_trigger", 0x40}});
  ASSERT_TRUE(sent) << sent.error().message();
  EXPECT_EQ(device->simulator()->armed_reset(), 0x40);  // level 4 armed
  EXPECT_EQ((*sent)[1].value, 1u);                       // reset_type as read, sent back unchanged
  auto refused = set_register(**port, **layout, {}, {{"reset_type", 0}});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::InvalidArgument);
}

TEST_F(MstReg, ShowRegAndShowRegsNeedNoDevice) {
  const auto r = mst({"reg", "--reg-name", "MNVQC", "--show-reg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ntype +\\| 0x00000000 +\\| 0 +\\| 32 +\\| INDEX\n"))) << r.out;
  const auto all = mst({"reg", "--show-regs"});
  EXPECT_EQ(all.out, "MGIR\nMFRL\nMNVQC\nMNVGC\nMTMP\nMTRC_CAP\nMTRC_CONF\nMTRC_STDB\nMTRC_CTRL\n");
  // mstreg's `--show_reg NAME`, and `--show-reg=NAME`, name the register themselves.
  for (const std::vector<std::string>& form : {std::vector<std::string>{"--show-reg", "MNVQC"},
                                              {"--show-reg=MNVQC"}, {"--show_reg", "MNVQC"}}) {
    std::vector<std::string> args{"reg"};
    args.insert(args.end(), form.begin(), form.end());
    const auto named = mst(args);
    EXPECT_EQ(named.exit_code, 0) << form[0] << ": " << named.err;
    EXPECT_EQ(named.out, r.out) << form[0];
  }
  const auto both = mst({"reg", "--reg-name", "MGIR", "--show-reg", "MNVQC"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_NE(both.err.find("name different registers"), std::string::npos) << both.err;
}

}  // namespace
}  // namespace openflint::test
