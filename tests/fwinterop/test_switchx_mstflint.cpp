// Interop: the SwitchX FS2 samples (fwburn, with the configuration-area tag and zero port GUIDs)
// pass the real mstflint's verify and query: its GUID line shows node, 0, 0, system image and
// both MACs, the same entries our flint lists.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

TEST(SwitchXMstflintInterop, SamplesVerifyAndQueryWithZeroPortGuids) {
  if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
  for (const char* version : {"old", "new"}) {
    SCOPED_TRACE(version);
    const std::string image = test::sample_image(std::string("switchx-") + version).string();
    const auto v = test::run_command({"mstflint", "-i", image, "v"});
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("FS2 failsafe image"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("FW image verification succeeded. Image is bootable."), std::string::npos) << v.out;
    const auto q = test::run_command({"mstflint", "-i", image, "q"});
    ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
    EXPECT_NE(q.out.find("Device ID:             51000"), std::string::npos) << q.out;
    EXPECT_NE(q.out.find("0002c90300b04000 0000000000000000 0000000000000000 0002c90300b04003"), std::string::npos)
        << q.out;
    EXPECT_NE(q.out.find("0002c9b04000     0002c9b04001"), std::string::npos) << q.out;
    EXPECT_NE(q.out.find("PSID:                  MT_1010210020"), std::string::npos) << q.out;
    const auto ours = test::run_tool("flint", {"-i", image, "q"});
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_NE(ours.out.find("GUIDs:                 0x0002c90300b04000 0x0000000000000000 0x0000000000000000 "
                            "0x0002c90300b04003"),
              std::string::npos)
        << ours.out;
  }
}

}  // namespace
}  // namespace openflint
