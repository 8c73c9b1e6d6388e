// Firmware description blobs: a referenced file is read up to the 4 MiB section limit, never whole.
#include <gtest/gtest.h>

#include <filesystem>

#include "burn/FirmwareDescription.h"
#include "burn/IniFile.h"

namespace openflint::burn {
namespace {

Result<FirmwareDescription> describe(const std::string& blob_path) {
  const std::string text = "[firmware]\ndevice = connectx4\n[section c]\ntype = MAIN_CODE\nfile = " + blob_path + "\n";
  auto ini = IniFile::parse(text, "t.fwdesc");
  EXPECT_TRUE(ini.has_value());
  return parse_firmware_description(*ini, "/");
}

TEST(FirmwareDescriptionLimits, EndlessFileIsRefusedBeforeItIsRead) {
  // /dev/zero never ends: reading it whole never returned (and took all memory). It is a
  // character device, refused as such before a byte is read (core/InputFile).
  if (!std::filesystem::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  auto d = describe("/dev/zero");
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().code(), ErrorCode::Io);
  EXPECT_NE(d.error().message().find("character device"), std::string::npos) << d.error().message();
  EXPECT_NE(d.error().message().find("t.fwdesc:5"), std::string::npos) << d.error().message();
}

TEST(FirmwareDescriptionLimits, MissingBlobIsNotFound) {
  auto d = describe("/nonexistent/blob.bin");
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().code(), ErrorCode::NotFound);  // exit 4, as an i/o error
}

}  // namespace
}  // namespace openflint::burn
