// Tests for the FS2 writer and parser: round trips, section CRCs, truncation, striping.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "image/Fs2Header.h"
#include "image/Fs2Image.h"
#include "image/Fs2Writer.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

Fs2ImageSpec sample_spec() {
  Fs2ImageSpec s;
  s.fw_version = {2, 42, 5000};
  s.release_date = ReleaseDate{2019, 9, 23};
  s.psid = "MT_1090120019";
  s.vsd = "openflint test vsd";
  s.product_version = "rel-2_42_5000";
  s.device_id = 4099;
  s.supported_hw_ids = {0x1f5, 0x1f7};
  s.base_guid = 0x0002c90300a1b2c0ull;
  s.base_mac = 0x0002c9a1b2c0ull;
  s.ini = "[PS_INFO]\nName = test board\nDescription = ConnectX-3 test\n[HCA]\nhca_header_device_id = 4099\n";
  std::vector<std::uint8_t> ddr(4096);
  for (std::size_t i = 0; i < ddr.size(); ++i) ddr[i] = static_cast<std::uint8_t>(i * 7 + 3);
  s.sections.push_back({gph::kDdr, ddr, 0});
  s.sections.push_back({gph::kCnf, std::vector<std::uint8_t>(64, 0x11), 0});
  s.sections.push_back({gph::kEmt, std::vector<std::uint8_t>(13, 0x22), 0});  // byte-sized
  return s;
}

std::vector<std::uint8_t> generate(const Fs2ImageSpec& spec) {
  auto image = write_fs2_image(spec);
  EXPECT_TRUE(image.has_value()) << (image ? "" : image.error().message());
  return image ? *image : std::vector<std::uint8_t>{};
}

// Offset of a byte inside the section's payload (or BOOT2 code), away from the header.
std::uint64_t payload_byte(const SectionCheck& c) {
  const std::uint64_t header = c.name == "BOOT2" ? 8 : 16;
  return c.start + header + (c.size - header - 4) / 2;
}

TEST(Fs2Image, QueryMatchesSpec) {
  const auto spec = sample_spec();
  const auto image = generate(spec);
  ASSERT_TRUE(fs2::probe(image, 0));
  auto q = fs2::query(image, 0);
  ASSERT_THAT(q, test::IsOk());
  EXPECT_EQ(q->format, ImageFormat::Fs2);
  ASSERT_TRUE(q->fw_version.has_value());
  EXPECT_EQ(*q->fw_version, spec.fw_version);
  ASSERT_TRUE(q->release_date.has_value());
  EXPECT_EQ(*q->release_date, *spec.release_date);
  EXPECT_EQ(q->psid, spec.psid);
  EXPECT_EQ(q->image_vsd, spec.vsd);
  EXPECT_EQ(q->product_version, spec.product_version);
  EXPECT_EQ(q->supported_hw_ids, spec.supported_hw_ids);
  EXPECT_EQ(q->pci_device_id, std::optional<std::uint16_t>(spec.device_id));
  ASSERT_TRUE(q->base_guid && q->base_mac);
  EXPECT_EQ(q->base_guid->base, spec.base_guid);
  EXPECT_EQ(q->base_guid->count, 4u);
  EXPECT_EQ(q->base_mac->base, spec.base_mac);
  EXPECT_EQ(q->base_mac->count, 2u);
  EXPECT_TRUE(q->failsafe);
  EXPECT_EQ(q->image_size, image.size());
}

TEST(Fs2Image, VerifyListsSectionsInChainOrder) {
  const auto image = generate(sample_spec());
  auto report = fs2::verify(image, 0);
  ASSERT_THAT(report, test::IsOk());
  EXPECT_TRUE(report->bootable());
  EXPECT_TRUE(report->problems.empty());
  const std::vector<std::string> names{"BOOT2", "DDR", "Configuration", "EMT Service", "GUID",
                                       "Image Info", "FW Configuration"};
  ASSERT_EQ(report->sections.size(), names.size());
  std::uint64_t expect_start = 0x38;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(report->sections[i].name, names[i]);
    EXPECT_EQ(report->sections[i].status, SectionStatus::Ok);
    EXPECT_EQ(report->sections[i].start, expect_start) << names[i];
    expect_start += report->sections[i].size;
  }
  EXPECT_EQ(expect_start, image.size());
  EXPECT_EQ(report->sections[3].size, 16u + 16 + 4);  // EMT: 13 bytes rounded up to 16
}

TEST(Fs2Image, FlippedByteInEachSectionGivesWrongCrcThere) {
  const auto image = generate(sample_spec());
  const auto clean = fs2::verify(image, 0);
  ASSERT_TRUE(clean.has_value());
  for (std::size_t i = 0; i < clean->sections.size(); ++i) {
    auto bad = image;
    bad[payload_byte(clean->sections[i])] ^= 0x01;
    auto report = fs2::verify(bad, 0);
    ASSERT_TRUE(report.has_value()) << clean->sections[i].name;
    ASSERT_EQ(report->sections.size(), clean->sections.size());
    for (std::size_t j = 0; j < report->sections.size(); ++j)
      EXPECT_EQ(report->sections[j].status, i == j ? SectionStatus::WrongCrc : SectionStatus::Ok)
          << "flipped " << clean->sections[i].name << ", checking " << report->sections[j].name;
    EXPECT_FALSE(report->bootable());
  }
}

TEST(Fs2Image, FlippedStoredCrcIsReported) {
  auto image = generate(sample_spec());
  const auto clean = fs2::verify(image, 0);
  ASSERT_TRUE(clean.has_value());
  const SectionCheck ddr = clean->sections[1];
  image[ddr.start + ddr.size - 1] ^= 0x80;
  auto report = fs2::verify(image, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->sections[1].status, SectionStatus::WrongCrc);
  EXPECT_NE(report->sections[1].detail.find("expected"), std::string::npos);
}

TEST(Fs2Image, FullImageCrcCheckedWhenMicVersionPresent) {
  auto spec = sample_spec();
  spec.mic_version = FwVersion{1, 2, 3};
  auto image = generate(spec);
  auto report = fs2::verify(image, 0);
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->sections.back().name, "Full Image");
  EXPECT_EQ(report->sections.back().status, SectionStatus::Ok);
  EXPECT_EQ(report->sections.back().size, image.size());
  image[fs2::kImageSizeOffset + 3] ^= 0x04;  // header word no section CRC covers
  report = fs2::verify(image, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->sections.back().status, SectionStatus::WrongCrc);
  EXPECT_FALSE(report->bootable());
}

TEST(Fs2Image, TruncationNeverCrashesAndNeverLooksBootable) {
  const auto image = generate(sample_spec());
  for (std::size_t cut = 0; cut < image.size(); ++cut) {
    const Bytes part(image.data(), cut);
    auto report = fs2::verify(part, 0);
    EXPECT_TRUE(!report.has_value() || !report->bootable()) << "cut at " << cut;
    (void)fs2::query(part, 0);
    auto ini = fs2::dump_config(part, 0);
    if (ini) {
      EXPECT_EQ(*ini, sample_spec().ini) << "cut at " << cut;
    }
  }
}

TEST(Fs2Image, RandomByteFlipsAreCaughtInsideTheChain) {
  const auto image = generate(sample_spec());
  std::mt19937 rng(12345);
  for (int round = 0; round < 1000; ++round) {
    auto bad = image;
    const std::size_t at = rng() % bad.size();
    bad[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    auto report = fs2::verify(bad, 0);
    (void)fs2::query(bad, 0);
    (void)fs2::dump_config(bad, 0);
    // Only the unchecked header words (0x10-0x37) may change without verify noticing.
    if (report && report->bootable()) {
      EXPECT_TRUE(at >= 0x10 && at < 0x38) << "flip at " << at;
    }
  }
}

TEST(Fs2Image, DumpConfigRoundTripsByteForByte) {
  auto spec = sample_spec();
  spec.ini.clear();
  for (int i = 0; i < 5000; ++i) spec.ini += "key_" + std::to_string(i) + " = " + std::to_string(i * 37) + "\n";
  spec.ini += "utf8 = \xc3\xa9\t\r\n";
  const auto image = generate(spec);
  auto ini = fs2::dump_config(image, 0);
  ASSERT_THAT(ini, test::IsOk());
  EXPECT_EQ(*ini, spec.ini);
}

TEST(Fs2Image, NoIniGivesNotFound) {
  auto spec = sample_spec();
  spec.ini.clear();
  auto ini = fs2::dump_config(generate(spec), 0);
  ASSERT_THAT(ini, test::FailsWith(ErrorCode::NotFound));
}

TEST(Fs2Image, GenerationIsReproducible) {
  const auto a = generate(sample_spec());
  const auto b = generate(sample_spec());
  EXPECT_EQ(a, b);
  auto other = sample_spec();
  other.psid = "MT_1090120020";
  EXPECT_NE(generate(other), a);
}

TEST(Fs2Image, ProbeRejectsFs3FormatByteAndGarbage) {
  auto image = generate(sample_spec());
  EXPECT_TRUE(fs2::probe(image, 0));
  auto fs3 = image;
  fs3[fs2::kBootVersionOffset] = 3;
  EXPECT_FALSE(fs2::probe(fs3, 0));
  EXPECT_FALSE(fs2::probe(image, 0x10));
  EXPECT_FALSE(fs2::probe(Bytes(image.data(), 15), 0));
  EXPECT_FALSE(fs2::verify(fs3, 0).has_value());
}

TEST(Fs2Image, NonFailsafeImage) {
  auto spec = sample_spec();
  spec.failsafe = false;
  const auto image = generate(spec);
  auto q = fs2::query(image, 0);
  ASSERT_TRUE(q.has_value());
  EXPECT_FALSE(q->failsafe);
  auto report = fs2::verify(image, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
  EXPECT_EQ(report->layout, "FS2 non failsafe image");
}

Fs2ImageSpec striped_spec() {
  auto spec = sample_spec();
  spec.log2_chunk_size = 16;
  spec.sections[0].data.resize(200000, 0x5a);  // spans several 64 KiB chunks
  return spec;
}

TEST(Fs2Image, StripedFlashDumpIsDetected) {
  auto spec = striped_spec();
  const auto contiguous = generate(spec);
  spec.striped = true;
  const auto flash = generate(spec);
  ASSERT_EQ(flash.size(), 2 * 4 * 0x10000u);
  auto report = fs2::verify(flash, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_NE(report->layout.find("striped"), std::string::npos) << report->layout;
  EXPECT_TRUE(report->bootable());
  auto plain = fs2::verify(contiguous, 0);
  ASSERT_TRUE(plain.has_value());
  EXPECT_NE(plain->layout.find("contiguous"), std::string::npos) << plain->layout;
  EXPECT_EQ(report->sections, plain->sections);  // logical addresses, as mstflint prints
  auto q = fs2::query(flash, 0);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->psid, spec.psid);
  auto ini = fs2::dump_config(flash, 0);
  ASSERT_TRUE(ini.has_value());
  EXPECT_EQ(*ini, spec.ini);
}

TEST(Fs2Image, StripedSecondCopyReadFromOddChunks) {
  auto spec = striped_spec();
  spec.striped = true;
  auto flash = generate(spec);
  flash[0] = 0;  // a burn zeroes the old copy's first dword
  EXPECT_FALSE(fs2::probe(flash, 0));
  ASSERT_TRUE(fs2::probe(flash, 0x10000));
  auto report = fs2::verify(flash, 0x10000);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
  EXPECT_NE(report->layout.find("striped"), std::string::npos);
  auto q = fs2::query(flash, 0x10000);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->image_start, 0x10000u);
  // Corrupting a byte of the second copy's third chunk (physical 0x50000) is seen there.
  flash[0x50000 + 100] ^= 0xff;
  report = fs2::verify(flash, 0x10000);
  ASSERT_TRUE(report.has_value());
  EXPECT_FALSE(report->bootable());
}

TEST(Fs2Image, StripedAddressMapping) {
  EXPECT_EQ(fs2::striped_address(0x0, false, 16), 0x0u);
  EXPECT_EQ(fs2::striped_address(0x1234, true, 16), 0x11234u);
  EXPECT_EQ(fs2::striped_address(0x10004, false, 16), 0x20004u);
  EXPECT_EQ(fs2::striped_address(0x10004, true, 16), 0x30004u);
}

void expect_rejected(Fs2ImageSpec spec, const std::string& field) {
  auto image = write_fs2_image(spec);
  ASSERT_THAT(image, test::FailsWith(ErrorCode::InvalidArgument)) << field;
  EXPECT_NE(image.error().message().find(field), std::string::npos) << image.error().message();
}

TEST(Fs2Writer, RejectsOutOfRangeInputs) {
  auto s = sample_spec();
  s.psid = std::string(17, 'P');
  expect_rejected(s, "psid");
  s = sample_spec();
  s.vsd = std::string(209, 'V');
  expect_rejected(s, "vsd");
  s = sample_spec();
  s.product_version = std::string(17, 'x');
  expect_rejected(s, "product_version");
  s = sample_spec();
  s.log2_chunk_size = 15;
  expect_rejected(s, "log2_chunk_size");
  s = sample_spec();
  s.sections.push_back({gph::kGuid, std::vector<std::uint8_t>(8), 0});
  expect_rejected(s, "sections[3]");
  s = sample_spec();
  s.sections[1].data.resize(63);
  expect_rejected(s, "sections[1]");
  s = sample_spec();
  s.boot2_code = std::vector<std::uint8_t>(8);
  expect_rejected(s, "boot2_code");
  s = sample_spec();
  s.failsafe = false;
  s.striped = true;
  expect_rejected(s, "striped");
  s = sample_spec();
  s.base_mac = 1ull << 50;
  expect_rejected(s, "base_mac");
}

TEST(Fs2Writer, AcceptsLimitLengthFields) {
  auto s = sample_spec();
  s.psid = std::string(16, 'P');
  s.vsd = std::string(208, 'V');
  auto q = fs2::query(generate(s), 0);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->psid, s.psid);
  EXPECT_EQ(q->image_vsd, s.vsd);
}

}  // namespace
}  // namespace openflint
