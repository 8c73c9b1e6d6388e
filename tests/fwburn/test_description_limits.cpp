// Firmware description blobs: a referenced file is read up to the 4 MiB section limit, never whole.
#include <gtest/gtest.h>

#include <filesystem>

#include "burn/BoardConfig.h"
#include "burn/FirmwareDescription.h"
#include "burn/ImageGenerator.h"
#include "burn/IniFile.h"
#include "image/FirmwareImage.h"

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

// component_update = yes: IMAGE_INFO mcc_en, which a running firmware's component update needs.
TEST(FirmwareDescriptionKeys, ComponentUpdateSetsMccEnOnFs3AndIsRefusedElsewhere) {
  const auto generate = [](const std::string& device, const std::string& mcc) -> Result<ImageQuery> {
    const std::string text = "[firmware]\ndevice = " + device + "\n" + mcc +
                             "[section c]\ntype = MAIN_CODE\nfiller_size = 0x1000\n";
    auto ini = IniFile::parse(text, "t.fwdesc");
    EXPECT_TRUE(ini.has_value());
    OF_ASSIGN(const FirmwareDescription d, parse_firmware_description(*ini, "/"));
    auto board = IniFile::parse("[image]\npsid = MT_0000000001\nfw_version = 12.1.1\nsupported_hw_ids = 0x209\n"
                                  "[board]\nbase_guid = 0x0002c90300a04000\nguid_count = 4\n"
                                  "base_mac = 0x0002c9a04000\nmac_count = 4\n", "b.ini");
    EXPECT_TRUE(board.has_value());
    OF_ASSIGN(const BoardConfig c, parse_board_config(*board, d));
    OF_ASSIGN(const auto image, generate_image(d, c));
    return query_image(image);
  };
  auto with = generate("connectx4", "component_update = yes\n");
  ASSERT_TRUE(with) << with.error().message();
  EXPECT_TRUE(with->mcc_enabled);
  auto without = generate("connectx4", "");
  ASSERT_TRUE(without) << without.error().message();
  EXPECT_FALSE(without->mcc_enabled);
  auto fs2 = generate("connectx3", "component_update = yes\n");
  ASSERT_FALSE(fs2);
  EXPECT_NE(fs2.error().message().find("component_update"), std::string::npos) << fs2.error().message();
}

}  // namespace
}  // namespace openflint::burn
