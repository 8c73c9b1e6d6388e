// Interop: the real mstflint tools (mstmread/mstmwrite) against our MAD responder on ibsim.
#include "tests/inband/InbandFabricFixture.h"

namespace openflint::test {
namespace {

class MstInterop : public InbandFabricFixture {
 protected:
  void SetUp() override {
    for (const char* tool : {"mstmread", "mstmwrite"}) {
      if (!have_program(tool)) GTEST_SKIP() << tool << " (mstflint) is not installed";
    }
    InbandFabricFixture::SetUp();
  }
  CapturedRun mst(std::vector<std::string> argv) {
    auto r = fabric_->run("Hca1", argv);
    EXPECT_TRUE(r) << r.error().message();
    return r ? *r : CapturedRun{};
  }
};

TEST_F(MstInterop, MstmreadReadsHwId) {
  for (const std::string& device : {lid_name(), "iblid-" + std::to_string(lid_), "ibdr-" + SimFabric::dr_path("Hca2")}) {
    auto r = mst({"mstmread", device, "0xf0014"});
    EXPECT_NE(r.out.find("0x0000020d"), std::string::npos) << device << ": " << r.out << r.err;
  }
}

TEST_F(MstInterop, MstmwriteThenBothReadBack) {
  auto w = mst({"mstmwrite", lid_name(), "0x3000", "0x12345678"});
  EXPECT_EQ(w.out.find("-E-"), std::string::npos) << w.out << w.err;
  auto r = mst({"mstmread", lid_name(), "0x3000"});
  EXPECT_NE(r.out.find("0x12345678"), std::string::npos) << r.out << r.err;
  auto ours = tool(lid_name(), {"read", "0x3000"});
  EXPECT_EQ(ours.out, "0x12345678\n") << ours.err;
  // And the other way round: our write, mstflint's read, above the mode-2 boundary.
  auto w2 = tool(lid_name(), {"write", "0x900000", "0x0badf00d"});
  ASSERT_EQ(w2.exit_code, 0) << w2.err;
  auto r2 = mst({"mstmread", lid_name(), "0x900000"});
  EXPECT_NE(r2.out.find("0x0badf00d"), std::string::npos) << r2.out << r2.err;
}

}  // namespace
}  // namespace openflint::test
