// Tests for the FS3 image module on synthetic images: probe, query, verify, corruption, INI.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/ByteReader.h"
#include "image/Fs3Image.h"
#include "image/Toc.h"
#include "image/TocWalk.h"
#include "tests/support/SyntheticImage.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::build_fs3;

std::vector<std::string> names(const VerifyReport& r) {
  std::vector<std::string> out;
  for (const auto& s : r.sections) out.push_back(s.name);
  return out;
}

const SectionCheck* find(const VerifyReport& r, const std::string& name) {
  for (const auto& s : r.sections)
    if (s.name == name) return &s;
  return nullptr;
}

TEST(Fs3, ProbeAcceptsFs3AndRejectsFs2AndGarbage) {
  auto img = build_fs3().bytes;
  EXPECT_TRUE(fs3::probe(img, 0));
  EXPECT_FALSE(fs3::probe(img, 0x10000));
  auto fs2 = img;
  fs2[0x24] = 0;  // format byte 0 = FS2, same magic
  EXPECT_FALSE(fs3::probe(fs2, 0));
  std::vector<std::uint8_t> tiny(img.begin(), img.begin() + 0x20);
  EXPECT_FALSE(fs3::probe(tiny, 0));
  EXPECT_FALSE(fs3::probe({}, 0));
}

TEST(Fs3, QueryReadsImageInfo) {
  test::SyntheticSpec spec;
  spec.fw_minor = 1224;
  spec.fw_subminor = 142;
  spec.release_bcd = 0x20170914;
  spec.psid = "HPE3230110035";
  const auto img = build_fs3(spec).bytes;
  auto q = fs3::query(img, 0);
  ASSERT_THAT(q, test::IsOk());
  EXPECT_EQ(q->format, ImageFormat::Fs3);
  ASSERT_TRUE(q->fw_version);
  EXPECT_EQ(q->fw_version->to_string(), "13.1224.0142");
  ASSERT_TRUE(q->release_date);
  EXPECT_EQ(q->release_date->to_string(), "14.9.2017");
  EXPECT_EQ(q->psid, "HPE3230110035");
  EXPECT_EQ(q->name, "TEST-PART_Ax");
  EXPECT_EQ(q->description, "synthetic test image");
  ASSERT_TRUE(q->issu_version);
  EXPECT_EQ(*q->issu_version, 2u);
  EXPECT_EQ(q->pci_vendor_id, std::optional<std::uint16_t>(0x15b3));
  EXPECT_EQ(q->pci_device_id, std::optional<std::uint16_t>(0x1234));
  EXPECT_EQ(q->supported_hw_ids, std::vector<std::uint32_t>{0x249});
  EXPECT_FALSE(q->base_guid);  // DEV_INFO uid 0 → N/A
  EXPECT_FALSE(q->security_version);
  EXPECT_GT(q->image_size, 0x3000u);
}

TEST(Fs3, VerifyListsSectionsInMstflintOrder) {
  const auto built = build_fs3();
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->layout, "FS3 failsafe image");
  const std::vector<std::string> expected = {"BOOT2",   "ITOC_HEADER", "IMAGE_INFO", "MAIN_CODE",
                                             "DBG_FW_INI", "NV_DATA",  "DEV_INFO",   "MFG_INFO",
                                             "VPD_R0"};
  EXPECT_EQ(names(*r), expected);
  EXPECT_TRUE(r->bootable());
  EXPECT_TRUE(r->problems.empty());
  EXPECT_EQ(find(*r, "BOOT2")->start, 0x38u);
  EXPECT_EQ(find(*r, "ITOC_HEADER")->start, built.itoc);
  EXPECT_EQ(find(*r, "MAIN_CODE")->start, built.main_code);
  EXPECT_EQ(find(*r, "NV_DATA")->status, SectionStatus::CrcIgnored);
  EXPECT_EQ(find(*r, "VPD_R0")->size, 0u);
  EXPECT_EQ(find(*r, "VPD_R0")->status, SectionStatus::Ok);
}

TEST(Fs3, FlippedMainCodeByteGivesWrongCrc) {
  auto built = build_fs3();
  built.bytes[built.main_code + built.main_code_size / 2] ^= 0x01;
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  const SectionCheck* main = find(*r, "MAIN_CODE");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->status, SectionStatus::WrongCrc);
  EXPECT_NE(main->detail.find("expected 0x"), std::string::npos);
  EXPECT_FALSE(r->bootable());
  EXPECT_EQ(find(*r, "IMAGE_INFO")->status, SectionStatus::Ok);
  // Query reads only the info sections, so it still works.
  EXPECT_TRUE(fs3::query(built.bytes, 0));
}

TEST(Fs3, WrongItocEntryCrcStopsTheWalk) {
  auto built = build_fs3();
  built.bytes[built.itoc + 0x20 + 0x20 + 0x08] ^= 0x40;  // second entry (MAIN_CODE), param1
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->bootable());
  ASSERT_EQ(r->problems.size(), 1u);
  EXPECT_NE(r->problems[0].find("wrong entry CRC"), std::string::npos) << r->problems[0];
  EXPECT_EQ(find(*r, "MAIN_CODE"), nullptr);
  EXPECT_FALSE(fs3::query(built.bytes, 0));
}

TEST(Fs3, WrongItocHeaderCrc) {
  auto built = build_fs3();
  built.bytes[built.itoc + 0x13] ^= 0x02;  // version dword
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "ITOC_HEADER")->status, SectionStatus::WrongCrc);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs3, WrongBoot2CrcStopsVerify) {
  auto built = build_fs3();
  built.bytes[built.boot2 + 12] ^= 0x80;
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->sections.size(), 1u);
  EXPECT_EQ(r->sections[0].status, SectionStatus::WrongCrc);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs3, ImplausibleBoot2SizeIsAProblem) {
  auto built = build_fs3();
  store_be32(&built.bytes[built.boot2 + 4], 0x00200000);
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->bootable());
  ASSERT_FALSE(r->problems.empty());
  EXPECT_NE(r->problems[0].find("BOOT2"), std::string::npos);
}

TEST(Fs3, AnItocOfMoreThan63EntriesStopsTheWalkNamingTheLimit) {
  // 64 entries with good entry CRCs and no END: the walk stops at the 64th and says why.
  std::vector<std::uint8_t> toc(kTocHeaderSize + kTocEntrySize * 65, 0);
  for (std::uint64_t at = kTocHeaderSize; at < toc.size(); at += kTocEntrySize) {
    toc[at] = 0x10;  // a section type, size 0
    auto crc = toc_block_crc(toc, at);
    ASSERT_TRUE(crc);
    store_be32(&toc[at + 0x1c], crc->computed);
  }
  const TocWalk walk = walk_toc(toc, 0, TocWalkConfig{});
  EXPECT_EQ(walk.sections.size(), 63u);
  ASSERT_FALSE(walk.problems.empty());
  EXPECT_NE(walk.problems.back().find("at most 63 sections"), std::string::npos) << walk.problems.back();
}

TEST(Fs3, ItocIsFoundAfterBlankSectors) {
  test::SyntheticSpec spec;
  spec.itoc_gap_sectors = 3;
  const auto built = build_fs3(spec);
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->bootable());
  EXPECT_EQ(find(*r, "ITOC_HEADER")->start, 0x4000u);
}

TEST(Fs3, MissingItocIsAProblem) {
  auto built = build_fs3();
  built.bytes[built.itoc] = 0;
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->bootable());
  ASSERT_EQ(r->problems.size(), 1u);
  EXPECT_NE(r->problems[0].find("no valid ITOC"), std::string::npos);
}

TEST(Fs3, MissingMfgInfoIsAProblem) {
  auto built = build_fs3();
  // Entry 5 is MFG_INFO: retype it to an unknown section and reseal the entry CRC.
  const std::uint64_t entry = built.itoc + 0x20 + 5 * 0x20;
  ASSERT_EQ(built.bytes[entry], 0xe0);
  built.bytes[entry] = 0x77;
  test::reseal_toc_block(built.bytes, entry);
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_NE(find(*r, "UNKNOWN:0x77"), nullptr);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs3, SectionOutsideTheImageIsInvalid) {
  test::SyntheticSpec spec;
  spec.extra.push_back({0x0a, std::vector<std::uint8_t>(0x100, 0xAB)});
  auto built = build_fs3(spec);
  const std::uint64_t entry = built.itoc + 0x20 + 7 * 0x20;  // the extra section's entry
  store_be32(&built.bytes[entry + 0x14], 0x80000000u | 0x7FFFF000u);
  test::reseal_toc_block(built.bytes, entry);
  auto r = fs3::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  const SectionCheck* phy = find(*r, "PHY_UC_CODE");
  ASSERT_NE(phy, nullptr);
  EXPECT_EQ(phy->status, SectionStatus::Invalid);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs3, TruncationNeverCrashesAndIsNeverBootable) {
  const auto full = build_fs3().bytes;
  auto whole = fs3::verify(full, 0);
  ASSERT_TRUE(whole);
  std::uint64_t end = 0;  // everything up to here is needed
  for (const auto& s : whole->sections) end = std::max<std::uint64_t>(end, s.start + s.size);
  for (std::size_t cut = 0; cut < full.size(); cut += cut < 0x6000 ? 0x13 : 0x1ff) {
    const Bytes part(full.data(), cut);
    auto r = fs3::verify(part, 0);
    ASSERT_TRUE(r);
    if (cut < end) {
      EXPECT_FALSE(r->bootable()) << "cut at " << cut;
    }
    auto q = fs3::query(part, 0);
    (void)q;
    auto c = fs3::dump_config(part, 0);
    (void)c;
  }
}

TEST(Fs3, DumpConfigInflatesTheIni) {
  test::SyntheticSpec spec;
  spec.ini = std::string(5000, 'x') + "\n[end]\n";
  auto ini = fs3::dump_config(build_fs3(spec).bytes, 0);
  ASSERT_THAT(ini, test::IsOk());
  EXPECT_EQ(*ini, spec.ini);
  spec.with_ini = false;
  auto none = fs3::dump_config(build_fs3(spec).bytes, 0);
  ASSERT_THAT(none, test::FailsWith(ErrorCode::NotFound));
}

TEST(Fs3, ImageAtNonZeroOffsetUsesPhysicalAddresses) {
  const auto built = build_fs3();
  std::vector<std::uint8_t> flash(0x100000, 0xFF);
  // Relative sections move with the image; device data stays absolute, so place a second copy
  // of the whole image at 0x80000 and keep the first copy's absolute sections intact.
  std::copy(built.bytes.begin(), built.bytes.end(), flash.begin());
  std::copy(built.bytes.begin(), built.bytes.end(), flash.begin() + 0x80000);
  ASSERT_TRUE(fs3::probe(flash, 0x80000));
  auto r = fs3::verify(flash, 0x80000);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->bootable());
  EXPECT_EQ(find(*r, "BOOT2")->start, 0x38u);  // mstflint prints BOOT2 image-relative
  EXPECT_EQ(find(*r, "MAIN_CODE")->start, 0x80000 + built.main_code);
  EXPECT_EQ(find(*r, "MFG_INFO")->start, find(*fs3::verify(built.bytes, 0), "MFG_INFO")->start);
}

}  // namespace
}  // namespace openflint
