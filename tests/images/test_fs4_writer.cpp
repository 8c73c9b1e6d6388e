// image/Fs4Writer: a generated FS4 image verifies (every section's CRC, HW pointers, tools area)
// and queries back to its spec; bad specs are refused naming the field.
#include <gtest/gtest.h>

#include "image/Fs4Image.h"
#include "image/Fs4Writer.h"
#include "image/SectionType.h"

namespace openflint {
namespace {

Fs4ImageSpec sample_spec() {
  Fs4ImageSpec spec;
  spec.fw_version = {16, 35, 2000};
  spec.release_date = ReleaseDate{2026, 12, 7};
  spec.psid = "MT_0000000008";
  spec.description = "generated FS4 test image";
  spec.part_number = "MCX516A-TEST_Ax";
  spec.supported_hw_ids = {0x20d};
  spec.base_guid = 0x0002c90300aa0000ull;
  spec.base_mac = 0x0002c9aa0000ull;
  spec.security_version = 3;
  spec.ini = "[fw]\nkey = value\n";
  spec.sections = {{section_type::kMainCode, std::vector<std::uint8_t>(0x3000, 0x5a)}};
  spec.flash_size = 0x100000;
  return spec;
}

TEST(Fs4Writer, AGeneratedImageVerifiesAndQueriesBackToItsSpec) {
  Fs4Layout layout;
  const auto image = write_fs4_image(sample_spec(), &layout);
  ASSERT_TRUE(image.has_value()) << image.error().message();
  EXPECT_EQ(image->size(), 0x100000u);
  ASSERT_TRUE(fs4::probe(*image, 0));
  const auto report = fs4::verify(*image, 0);
  ASSERT_TRUE(report.has_value()) << report.error().message();
  EXPECT_TRUE(report->bootable()) << (report->problems.empty() ? "" : report->problems.front());
  for (const auto& s : report->sections) EXPECT_NE(s.status, SectionStatus::WrongCrc) << s.name;
  const auto q = fs4::query(*image, 0);
  ASSERT_TRUE(q.has_value()) << q.error().message();
  ASSERT_TRUE(q->fw_version.has_value());
  EXPECT_EQ(q->fw_version->major, 16);
  EXPECT_EQ(q->fw_version->minor, 35);
  EXPECT_EQ(q->fw_version->subminor, 2000);
  EXPECT_EQ(q->psid, "MT_0000000008");
  EXPECT_EQ(q->supported_hw_ids, std::vector<std::uint32_t>{0x20d});
  ASSERT_TRUE(q->base_guid.has_value());
  EXPECT_EQ(q->base_guid->base, 0x0002c90300aa0000ull);
  ASSERT_TRUE(q->base_mac.has_value());
  EXPECT_EQ(q->base_mac->base, 0x0002c9aa0000ull);
  EXPECT_EQ(q->security_version, std::optional<std::uint32_t>{3});
  EXPECT_EQ(layout.dtoc, 0x100000u - 0x1000);
  EXPECT_FALSE(layout.sections.empty());
}

TEST(Fs4Writer, TheSameSpecGivesTheSameBytes) {
  EXPECT_EQ(write_fs4_image(sample_spec()).value(), write_fs4_image(sample_spec()).value());
}

TEST(Fs4Writer, BadSpecsAreRefusedNamingTheField) {
  auto long_psid = sample_spec();
  long_psid.psid = std::string(17, 'P');
  auto device_data = sample_spec();
  device_data.sections.push_back({section_type::kDevInfo, std::vector<std::uint8_t>(0x200)});
  auto too_big = sample_spec();
  too_big.sections.push_back({section_type::kMainCode, std::vector<std::uint8_t>(0xff000, 1)});
  auto odd_flash = sample_spec();
  odd_flash.flash_size = 0x100001;
  for (const auto& [spec, field] : {std::pair{long_psid, "psid"}, std::pair{device_data, "sections[1]"},
                                    std::pair{too_big, "sections"}, std::pair{odd_flash, "flash_size"}}) {
    const auto image = write_fs4_image(spec);
    ASSERT_FALSE(image.has_value()) << field;
    EXPECT_EQ(image.error().code(), ErrorCode::InvalidArgument) << field;
    EXPECT_EQ(image.error().message().rfind(field, 0), 0u) << image.error().message();
  }
}

}  // namespace
}  // namespace openflint
