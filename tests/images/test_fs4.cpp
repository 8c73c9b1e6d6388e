// Tests for the FS4 image module on synthetic images: HW pointers, tools area, ITOC, DTOC.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/ByteReader.h"
#include "image/Fs4Image.h"
#include "tests/support/SyntheticImage.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::build_fs4;

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

bool mentions(const VerifyReport& r, const std::string& text) {
  for (const auto& p : r.problems)
    if (p.find(text) != std::string::npos) return true;
  return false;
}

TEST(Fs4, ProbeChecksMagicAndFormatVersion) {
  auto img = build_fs4().bytes;
  EXPECT_TRUE(fs4::probe(img, 0));
  auto fs5 = img;
  fs5[0x10] = 2;
  EXPECT_FALSE(fs4::probe(fs5, 0));
  auto other = img;
  other[5] ^= 1;
  EXPECT_FALSE(fs4::probe(other, 0));
  EXPECT_FALSE(fs4::probe(Bytes(img.data(), 0x10), 0));
}

TEST(Fs4, VerifyListsSectionsInMstflintOrder) {
  const auto built = build_fs4();
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->layout, "FS4 failsafe image");
  std::vector<std::string> expected(16, "HW_POINTERS");
  for (const char* n : {"TOOLS_AREA", "BOOT2", "ITOC_HEADER", "RESET_INFO", "MAIN_CODE",
                        "IMAGE_INFO", "DBG_FW_INI", "DTOC_HEADER", "NV_DATA", "DEV_INFO",
                        "MFG_INFO", "VPD_R0"})
    expected.push_back(n);  // the blank DEV_INFO copy is skipped, as mstflint does
  EXPECT_EQ(names(*r), expected);
  EXPECT_TRUE(r->bootable()) << (r->problems.empty() ? "" : r->problems[0]);
  EXPECT_EQ(r->sections[0].start, 0x18u);
  EXPECT_EQ(r->sections[15].start, 0x90u);
  EXPECT_EQ(find(*r, "TOOLS_AREA")->start, 0x500u);
  EXPECT_EQ(find(*r, "BOOT2")->start, 0x1000u);
  EXPECT_EQ(find(*r, "DTOC_HEADER")->start, built.dtoc);
  EXPECT_EQ(find(*r, "NV_DATA")->status, SectionStatus::CrcIgnored);
  EXPECT_EQ(find(*r, "VPD_R0")->size, 0u);
}

TEST(Fs4, QueryReadsImageInfoAndSecurityVersion) {
  test::SyntheticSpec spec;
  spec.fw_major = 29;
  spec.fw_minor = 2000;
  spec.fw_subminor = 2162;
  spec.psid = "MT_0000000199";
  spec.hw_id = 0x24e;
  spec.security_version = 3;
  auto q = fs4::query(build_fs4(spec).bytes, 0);
  ASSERT_THAT(q, test::IsOk());
  EXPECT_EQ(q->format, ImageFormat::Fs4);
  EXPECT_EQ(q->fw_version->to_string(), "29.2000.2162");
  EXPECT_EQ(q->release_date->to_string(), "23.9.2019");
  EXPECT_EQ(q->psid, "MT_0000000199");
  EXPECT_EQ(q->supported_hw_ids, std::vector<std::uint32_t>{0x24e});
  EXPECT_EQ(q->security_version, std::optional<std::uint32_t>(3));
}

TEST(Fs4, FlippedMainCodeByteGivesWrongCrc) {
  auto built = build_fs4();
  built.bytes[built.main_code + 100] ^= 0x10;
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "MAIN_CODE")->status, SectionStatus::WrongCrc);
  EXPECT_FALSE(r->bootable());
  EXPECT_EQ(find(*r, "MFG_INFO")->status, SectionStatus::Ok);  // the walk goes on
}

TEST(Fs4, WrongHwPointerCrcStopsVerify) {
  auto built = build_fs4();
  built.bytes[0x18 + 8 * 2 + 3] ^= 0x01;  // toc pointer
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->sections.size(), 3u);
  EXPECT_EQ(r->sections[2].status, SectionStatus::WrongCrc);
  EXPECT_EQ(r->sections[2].start, 0x28u);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs4, WrongToolsAreaCrc) {
  auto built = build_fs4();
  built.bytes[0x510] ^= 0x01;
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "TOOLS_AREA")->status, SectionStatus::WrongCrc);
  EXPECT_EQ(find(*r, "BOOT2"), nullptr);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs4, CrcInSectionCorruptionIsDetected) {
  auto built = build_fs4();
  auto clean = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(clean);
  const SectionCheck* dev = find(*clean, "DEV_INFO");
  ASSERT_NE(dev, nullptr);
  built.bytes[dev->start + dev->size - 1] ^= 0x01;  // the stored CRC in the last dword
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "DEV_INFO")->status, SectionStatus::WrongCrc);
  EXPECT_FALSE(r->bootable());
}

TEST(Fs4, WrongItocEntryCrcIsAProblem) {
  auto built = build_fs4();
  built.bytes[built.itoc + 0x20 + 0x0c] ^= 0x01;
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_TRUE(mentions(*r, "wrong entry CRC"));
  EXPECT_FALSE(r->bootable());
  EXPECT_FALSE(fs4::query(built.bytes, 0));
}

TEST(Fs4, BackupItocIsUsedWhenThePrimaryIsMissing) {
  auto built = build_fs4();
  // Copy the ITOC block (header + entries) to the backup slot one sector up and blank the
  // primary signature; the sections the entries point at stay where they are.
  auto img = built.bytes;
  std::copy_n(built.bytes.begin() + static_cast<std::ptrdiff_t>(built.itoc), 0x200,
              img.begin() + static_cast<std::ptrdiff_t>(built.itoc + 0x1000));
  img[built.itoc] = 0;
  auto r = fs4::verify(img, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "ITOC_HEADER")->start, built.itoc + 0x1000);
}

TEST(Fs4, MissingDtocIsAProblem) {
  auto built = build_fs4();
  built.bytes[built.dtoc + 1] = 0;
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_TRUE(mentions(*r, "DTOC"));
  EXPECT_FALSE(r->bootable());
}

TEST(Fs4, NoValidDevInfoIsAProblem) {
  auto built = build_fs4();
  auto clean = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(clean);
  built.bytes[find(*clean, "DEV_INFO")->start] = 0;  // break the signature
  auto r = fs4::verify(built.bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "DEV_INFO"), nullptr);
  EXPECT_TRUE(mentions(*r, "DEV_INFO"));
  EXPECT_FALSE(r->bootable());
}

TEST(Fs4, TruncationNeverCrashesAndIsNeverBootable) {
  const auto full = build_fs4().bytes;
  for (std::size_t cut = 0; cut < full.size(); cut += cut < 0x9000 ? 0x17 : 0x3ff) {
    const Bytes part(full.data(), cut);
    auto r = fs4::verify(part, 0);
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->bootable()) << "cut at " << cut;  // the DTOC sits in the last sector
    (void)fs4::query(part, 0);
    (void)fs4::dump_config(part, 0);
  }
}

TEST(Fs4, DumpConfigInflatesTheIni) {
  test::SyntheticSpec spec;
  spec.ini = "[a]\nb=c\n";
  auto ini = fs4::dump_config(build_fs4(spec).bytes, 0);
  ASSERT_THAT(ini, test::IsOk());
  EXPECT_EQ(*ini, spec.ini);
  spec.with_ini = false;
  auto none = fs4::dump_config(build_fs4(spec).bytes, 0);
  ASSERT_THAT(none, test::FailsWith(ErrorCode::NotFound));
}

TEST(Fs4, ZeroSizeAndNoCrcSectionsInTheItoc) {
  test::SyntheticSpec spec;
  spec.extra.push_back({0x0b, {}, 0, false});                                    // zero size
  spec.extra.push_back({0x0d, std::vector<std::uint8_t>(0x40, 0x11), 1, false});  // no CRC
  auto r = fs4::verify(build_fs4(spec).bytes, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(find(*r, "PHY_UC_CONSTS")->size, 0u);
  EXPECT_EQ(find(*r, "PHY_UC_CONSTS")->status, SectionStatus::Ok);
  EXPECT_EQ(find(*r, "CCIR_INFRA_CODE")->status, SectionStatus::CrcIgnored);
  EXPECT_TRUE(r->bootable());
}

}  // namespace
}  // namespace openflint
