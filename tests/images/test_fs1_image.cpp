// Tests for the FS1 writer and parser: invariant sector, pointer sectors, both copies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "image/Fs1Image.h"
#include "image/Fs1PointerSector.h"
#include "image/Fs1Writer.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

constexpr unsigned kLog2Sector = 12;  // 4 KiB sectors keep the sweeps fast
constexpr std::size_t kSector = std::size_t{1} << kLog2Sector;

Fs1ImageSpec sample_spec() {
  Fs1ImageSpec s;
  s.fw_version = {5, 3, 0};
  s.psid = "MT_0370110001";
  s.vsd = "openflint fs1 vsd";
  s.product_version = "ih3lx-5.3";
  s.supported_hw_ids = {0x6278};
  s.base_guid = 0x0002c90200123450ull;
  s.ini = "[PS_INFO]\nName = MHGA28\n[IB]\nport_num = 2\n";
  std::vector<std::uint8_t> ddr(2048);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i ^ 0x5c);
  s.sections.push_back({gph::kDdr, ddr, 0});
  s.sections.push_back({gph::kJmp, std::vector<std::uint8_t>(32, 0x33), 0});
  s.log2_sector_size = kLog2Sector;
  return s;
}

std::vector<std::uint8_t> generate(const Fs1ImageSpec& spec) {
  auto image = write_fs1_image(spec);
  EXPECT_TRUE(image.has_value()) << (image ? "" : image.error().message());
  return image ? *image : std::vector<std::uint8_t>{};
}

std::uint64_t payload_byte(const SectionCheck& c) {
  if (c.name.find("Pointer Sector") != std::string::npos) return c.start + 0x40;
  const std::uint64_t header = c.name.find("BOOT2") != std::string::npos ? 8 : 16;
  return c.start + header + (c.size - header - 4) / 2;
}

TEST(Fs1Image, LayoutFollowsTheSectorSize) {
  const auto image = generate(sample_spec());
  ASSERT_TRUE(fs1::probe(image, 0));
  auto log2 = fs1::read_log2_sector_size(image, 0);
  ASSERT_TRUE(log2.has_value());
  EXPECT_EQ(*log2, kLog2Sector);
  auto pps = fs1::read_pointer_sector(image, kSector);
  auto sps = fs1::read_pointer_sector(image, 2 * kSector);
  ASSERT_TRUE(pps && sps);
  EXPECT_EQ(pps->fi_addr, 3 * kSector);
  EXPECT_GT(sps->fi_addr, pps->fi_addr + pps->fi_size - 1);
  EXPECT_EQ(sps->fi_addr % kSector, 0u);
  EXPECT_EQ(image.size(), sps->fi_addr + (sps->fi_size + kSector - 1) / kSector * kSector);
  // VSD is stored byte-swapped per dword: "open" reads back as "nepo".
  EXPECT_EQ(std::string(image.begin() + kSector + 0x20, image.begin() + kSector + 0x24), "nepo");
}

TEST(Fs1Image, QueryMatchesSpec) {
  const auto spec = sample_spec();
  const auto image = generate(spec);
  auto q = fs1::query(image, 0);
  ASSERT_THAT(q, test::IsOk());
  EXPECT_EQ(q->format, ImageFormat::Fs1);
  ASSERT_TRUE(q->fw_version.has_value());
  EXPECT_EQ(*q->fw_version, spec.fw_version);
  EXPECT_EQ(q->psid, spec.psid);
  EXPECT_EQ(q->image_vsd, spec.vsd);
  EXPECT_EQ(q->product_version, spec.product_version);
  EXPECT_EQ(q->supported_hw_ids, spec.supported_hw_ids);
  ASSERT_TRUE(q->base_guid.has_value());
  EXPECT_EQ(q->base_guid->base, spec.base_guid);
  EXPECT_EQ(q->base_guid->count, 4u);
  EXPECT_EQ(q->image_start, 3 * kSector);
  EXPECT_TRUE(q->failsafe);
}

TEST(Fs1Image, VerifyListsInvariantPointerSectorsAndBothCopies) {
  const auto image = generate(sample_spec());
  auto report = fs1::verify(image, 0);
  ASSERT_THAT(report, test::IsOk());
  EXPECT_TRUE(report->bootable());
  const std::vector<std::string> copy{"BOOT2", "DDR", "Jump addresses", "GUID", "Image Info",
                                      "FW Configuration"};
  std::vector<std::string> names{"Invariant BOOT2", "Primary Pointer Sector"};
  for (const auto& n : copy) names.push_back("Primary " + n);
  names.push_back("Secondary Pointer Sector");
  for (const auto& n : copy) names.push_back("Secondary " + n);
  ASSERT_EQ(report->sections.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(report->sections[i].name, names[i]);
    EXPECT_EQ(report->sections[i].status, SectionStatus::Ok) << names[i];
  }
  EXPECT_EQ(report->sections[0].start, 0x28u);
  EXPECT_EQ(report->sections[1].start, kSector);
  EXPECT_EQ(report->sections[2].start, 3 * kSector + 0x28);
}

TEST(Fs1Image, FlippedByteInEachSectionGivesWrongCrcThere) {
  const auto image = generate(sample_spec());
  const auto clean = fs1::verify(image, 0);
  ASSERT_TRUE(clean.has_value());
  for (std::size_t i = 0; i < clean->sections.size(); ++i) {
    auto bad = image;
    bad[payload_byte(clean->sections[i])] ^= 0x10;
    auto report = fs1::verify(bad, 0);
    ASSERT_TRUE(report.has_value()) << clean->sections[i].name;
    ASSERT_EQ(report->sections.size(), clean->sections.size());
    for (std::size_t j = 0; j < report->sections.size(); ++j)
      EXPECT_EQ(report->sections[j].status, i == j ? SectionStatus::WrongCrc : SectionStatus::Ok)
          << "flipped " << clean->sections[i].name << ", checking " << report->sections[j].name;
    EXPECT_FALSE(report->bootable());
  }
}

TEST(Fs1Image, UnsignedPrimaryFallsBackToSecondary) {
  auto image = generate(sample_spec());
  image[kSector + 8] = 0;  // a burn zeroes the PS signature first
  auto report = fs1::verify(image, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->sections[1].name, "Primary Pointer Sector");
  EXPECT_EQ(report->sections[1].status, SectionStatus::Invalid);
  EXPECT_FALSE(report->bootable());
  EXPECT_EQ(report->sections.back().name, "Secondary FW Configuration");
  auto q = fs1::query(image, 0);
  ASSERT_TRUE(q.has_value());
  auto sps = fs1::read_pointer_sector(image, 2 * kSector);
  ASSERT_TRUE(sps.has_value());
  EXPECT_EQ(q->image_start, sps->fi_addr);
  EXPECT_EQ(q->psid, sample_spec().psid);
  image[2 * kSector + 8] = 0;
  EXPECT_FALSE(fs1::query(image, 0).has_value());
  EXPECT_FALSE(fs1::dump_config(image, 0).has_value());
}

TEST(Fs1Image, TruncationNeverCrashes) {
  const auto image = generate(sample_spec());
  auto sps = fs1::read_pointer_sector(image, 2 * kSector);
  ASSERT_TRUE(sps.has_value());
  const std::size_t needed = sps->fi_addr + sps->fi_size;  // the rest is 0xff padding
  for (std::size_t cut = 0; cut < image.size(); cut += 7) {
    const Bytes part(image.data(), cut);
    auto report = fs1::verify(part, 0);
    if (cut < needed) {
      EXPECT_TRUE(!report.has_value() || !report->bootable()) << "cut at " << cut;
    } else {
      ASSERT_TRUE(report.has_value());
      EXPECT_TRUE(report->bootable()) << "cut at " << cut;
    }
    (void)fs1::query(part, 0);
    (void)fs1::dump_config(part, 0);
  }
}

TEST(Fs1Image, DumpConfigRoundTripAndReproducibility) {
  const auto spec = sample_spec();
  const auto image = generate(spec);
  auto ini = fs1::dump_config(image, 0);
  ASSERT_THAT(ini, test::IsOk());
  EXPECT_EQ(*ini, spec.ini);
  EXPECT_EQ(generate(spec), image);
  auto no_ini = spec;
  no_ini.ini.clear();
  auto missing = fs1::dump_config(generate(no_ini), 0);
  ASSERT_THAT(missing, test::FailsWith(ErrorCode::NotFound));
}

TEST(Fs1Image, SixtyFourKibSectors) {
  auto spec = sample_spec();
  spec.log2_sector_size = 16;
  const auto image = generate(spec);
  auto q = fs1::query(image, 0);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->image_start, 0x30000u);
  auto report = fs1::verify(image, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
  EXPECT_EQ(report->layout, "FS1 failsafe image, sector size 0x10000");
}

TEST(Fs1Writer, RejectsOutOfRangeInputs) {
  auto s = sample_spec();
  s.psid = std::string(17, 'P');
  auto r = write_fs1_image(s);
  ASSERT_THAT(r, test::FailsWith(ErrorCode::InvalidArgument));
  EXPECT_NE(r.error().message().find("psid"), std::string::npos);
  s = sample_spec();
  s.vsd = std::string(209, 'V');
  r = write_fs1_image(s);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("vsd"), std::string::npos);
  s = sample_spec();
  s.log2_sector_size = 11;
  r = write_fs1_image(s);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("log2_sector_size"), std::string::npos);
  s = sample_spec();
  s.invariant_code = std::vector<std::uint8_t>(kSector, 0);
  r = write_fs1_image(s);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("invariant_code"), std::string::npos);
}

TEST(Fs1Image, ProbeNeedsTheSignature) {
  auto image = generate(sample_spec());
  EXPECT_TRUE(fs1::probe(image, 0));
  image[0x24] ^= 1;
  EXPECT_FALSE(fs1::probe(image, 0));
  EXPECT_FALSE(fs1::verify(image, 0).has_value());
  EXPECT_FALSE(fs1::probe(Bytes(image.data(), 0x20), 0));
}

}  // namespace
}  // namespace openflint
