// ImagePatch library checks on writer-made images: FS2 whole-image CRC, striped dumps, corrupt input.
#include <gtest/gtest.h>

#include <algorithm>

#include "image/FirmwareImage.h"
#include "image/Fs2Writer.h"
#include "image/ImagePatch.h"

namespace openflint {
namespace {

Fs2ImageSpec fs2_spec() {
  Fs2ImageSpec s;
  s.fw_version = {2, 42, 5000};
  s.mic_version = FwVersion{1, 2, 3};  // makes verify check the whole-image CRC in fw_id
  s.psid = "MT_1090120019";
  s.vsd = "before";
  s.base_guid = 0x0002c90300000010ull;
  s.base_mac = 0x0002c9000010ull;
  s.sections.push_back({gph::kDdr, std::vector<std::uint8_t>(4096, 0x5a), 0});
  return s;
}

const SectionCheck* find_check(const VerifyReport& r, const std::string& name) {
  auto it = std::find_if(r.sections.begin(), r.sections.end(), [&](const SectionCheck& c) { return c.name == name; });
  return it == r.sections.end() ? nullptr : &*it;
}

TEST(ImagePatch, Fs2WholeImageCrcIsResealed) {
  auto image = write_fs2_image(fs2_spec());
  ASSERT_TRUE(image.has_value());
  auto patched = set_guids(*image, {0x0002c903aabbcc00ull, 0x0002c9aabb00ull});
  ASSERT_TRUE(patched.has_value()) << patched.error().message();
  auto patched2 = set_vsd(*patched, "after");
  ASSERT_TRUE(patched2.has_value()) << patched2.error().message();
  auto report = verify_image(*patched2);
  ASSERT_TRUE(report.has_value());
  const SectionCheck* full = find_check(*report, "Full Image");
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->status, SectionStatus::Ok) << full->detail;
  EXPECT_TRUE(report->bootable());
  auto q = query_image(*patched2);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->base_guid->base, 0x0002c903aabbcc00ull);
  EXPECT_EQ(q->base_mac->base, 0x0002c9aabb00ull);
  EXPECT_EQ(q->image_vsd, "after");
  // Same result as writing the image with those values in the first place.
  Fs2ImageSpec want = fs2_spec();
  want.base_guid = 0x0002c903aabbcc00ull;
  want.base_mac = 0x0002c9aabb00ull;
  want.vsd = "after";
  EXPECT_EQ(*patched2, *write_fs2_image(want));
}

TEST(ImagePatch, GuidWithoutMacKeepsTheMacs) {
  auto image = write_fs2_image(fs2_spec());
  ASSERT_TRUE(image.has_value());
  auto patched = set_guids(*image, {0x0002c903aabbcc00ull, std::nullopt});
  ASSERT_TRUE(patched.has_value());
  auto q = query_image(*patched);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->base_mac->base, 0x0002c9000010ull);
}

TEST(ImagePatch, Fs2StripedDumpIsNotSupported) {
  Fs2ImageSpec s = fs2_spec();
  s.striped = true;
  s.log2_chunk_size = 16;
  auto image = write_fs2_image(s);
  ASSERT_TRUE(image.has_value());
  auto r = set_vsd(*image, "x");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::NotSupported);
}

TEST(ImagePatch, CorruptImageIsRefused) {
  auto image = write_fs2_image(fs2_spec());
  ASSERT_TRUE(image.has_value());
  (*image)[0x38 + 0x40] ^= 0xff;  // inside BOOT2
  auto r = set_guids(*image, {1, std::nullopt});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), ErrorCode::InvalidImage) << r.error().message();
}

TEST(ImagePatch, BadInputsNameTheLimit) {
  auto image = write_fs2_image(fs2_spec());
  ASSERT_TRUE(image.has_value());
  auto vsd = set_vsd(*image, std::string(209, 'v'));
  ASSERT_FALSE(vsd.has_value());
  EXPECT_EQ(vsd.error().code(), ErrorCode::InvalidArgument);
  EXPECT_NE(vsd.error().message().find("208"), std::string::npos) << vsd.error().message();
  auto mac = set_guids(*image, {1, 0x1000000000000ull});
  ASSERT_FALSE(mac.has_value());
  EXPECT_NE(mac.error().message().find("48 bits"), std::string::npos) << mac.error().message();
  auto garbage = set_vsd(std::vector<std::uint8_t>(4096, 0xff), "x");
  EXPECT_FALSE(garbage.has_value());
}

}  // namespace
}  // namespace openflint
