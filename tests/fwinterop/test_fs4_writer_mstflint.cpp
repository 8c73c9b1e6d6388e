// Interop: an FS4 image from image/Fs4Writer passes the real mstflint's verify, and its query
// shows the spec's version, GUIDs and PSID (an oracle for the writer issue 38 builds on).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "image/Fs4Writer.h"
#include "image/SectionType.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

TEST(Fs4WriterMstflintInterop, AGeneratedImageVerifiesAndQueries) {
  if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
  Fs4ImageSpec spec;
  spec.fw_version = {16, 35, 2000};
  spec.release_date = ReleaseDate{2026, 12, 7};
  spec.psid = "MT_0000000008";
  spec.supported_hw_ids = {0x20d};
  spec.base_guid = 0x0002c90300aa0000ull;
  spec.base_mac = 0x0002c9aa0000ull;
  spec.ini = "[fw]\nkey = value\n";
  spec.sections = {{section_type::kMainCode, std::vector<std::uint8_t>(0x3000, 0x5a)}};
  spec.flash_size = 0x100000;
  const auto bytes = write_fs4_image(spec);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().message();
  const test::TempDir dir;
  const std::string image = (dir / "fs4.bin").string();
  std::ofstream(image, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()),
                                                static_cast<std::streamsize>(bytes->size()));
  const auto v = test::run_command({"mstflint", "-i", image, "v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("FS4 failsafe image"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("FW image verification succeeded. Image is bootable."), std::string::npos) << v.out;
  const auto q = test::run_command({"mstflint", "-i", image, "q"});
  ASSERT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_NE(q.out.find("Image type:            FS4"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("FW Version:            16.35.2000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("0002c90300aa0000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("0002c9aa0000"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("PSID:                  MT_0000000008"), std::string::npos) << q.out;
}

}  // namespace
}  // namespace openflint
