// Tests: the PLDM reader on packages our writer builds (1.0) and on 1.1-1.3 packages laid out here by hand — round trip, checksums, hostile files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "image/Crc32.h"
#include "image/PldmFormat.h"
#include "image/PldmPackage.h"
#include "image/PldmWriter.h"

namespace openflint::test {
namespace {

std::vector<std::uint8_t> pattern(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> out(size);
  std::uint32_t x = seed * 2654435761u + 11;
  for (auto& b : out) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return out;
}

std::vector<std::uint8_t> two_record_package() {
  auto package = build_pldm({{.psid = "MT_0000000011", .image = pattern(70000, 1), .version = "16.35.2000"},
                             {.psid = "MT_0000000022", .image = pattern(90001, 2), .version = "20.41.1000"}},
                            "pkg-1", 1767225600 /* 2026-01-01 00:00:00 UTC */);
  if (!package) {
    ADD_FAILURE() << package.error().message();
    return {};
  }
  return *package;
}

std::vector<std::uint8_t> extract_all(const PldmPackage& package, const PldmComponent& component) {
  std::vector<std::uint8_t> out;
  auto done = package.extract(component, [&out](Bytes chunk) -> Result<void> {
    EXPECT_LE(chunk.size(), PldmPackage::kChunkSize);
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  });
  EXPECT_TRUE(done.has_value()) << done.error().message();
  return out;
}

std::uint16_t le16_at(const std::vector<std::uint8_t>& p, std::size_t at) {
  return static_cast<std::uint16_t>(p[at] | (p[at + 1] << 8));
}
void store_le32_at(std::vector<std::uint8_t>& p, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}
// Rewrites the header CRC32 (1.0 layout) after a test changed the header, so the check it is about is reached.
std::vector<std::uint8_t> refix_crc(std::vector<std::uint8_t> p) {
  const std::size_t header_size = le16_at(p, 17);
  store_le32_at(p, header_size - 4, crc32(Bytes(p).first(header_size - 4)));
  return p;
}

// Where the writer's layout puts things: the record area after the 36-byte fixed header and
// the package version; the component infos right before the CRC (22 + version bytes each).
std::size_t record_area(const std::vector<std::uint8_t>& p) { return pldm::kHeaderFixedSize + p[35]; }
std::size_t component_info(const std::vector<std::uint8_t>& p, std::size_t index) {
  std::size_t at = record_area(p);
  const unsigned records = p[at++];
  for (unsigned i = 0; i < records; ++i) at += le16_at(p, at);
  at += 2;
  for (std::size_t i = 0; i < index; ++i) at += pldm::kComponentFixedSize + p[at + 21];
  return at;
}

void expect_refused(std::vector<std::uint8_t> bytes, ErrorCode code, const std::string& fragment) {
  auto package = PldmPackage::from_bytes(std::move(bytes));
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), code) << package.error().message();
  EXPECT_NE(package.error().message().find(fragment), std::string::npos) << package.error().message();
}

TEST(PldmPackage, WriterRoundTripsEveryRecord) {
  const auto bytes = two_record_package();
  auto package = PldmPackage::from_bytes(bytes);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  EXPECT_STREQ(package->spec_version(), "1.0");
  EXPECT_EQ(package->format_revision(), 1);
  EXPECT_EQ(package->version(), "pkg-1");
  EXPECT_EQ(package->release_date(), "2026-01-01 00:00:00");
  EXPECT_EQ(package->component_bitmap_bits(), 8);
  ASSERT_EQ(package->records().size(), 2u);
  ASSERT_EQ(package->components().size(), 2u);
  const std::vector<std::uint8_t> images[] = {pattern(70000, 1), pattern(90001, 2)};
  const char* psids[] = {"MT_0000000011", "MT_0000000022"};
  for (std::size_t i = 0; i < 2; ++i) {
    const PldmDeviceRecord& r = package->records()[i];
    EXPECT_EQ(r.psid, psids[i]);
    EXPECT_FALSE(r.downstream);
    ASSERT_EQ(r.descriptors.size(), 2u);
    EXPECT_EQ(r.descriptors[0].type, pldm::kDescPciVendorId);
    EXPECT_EQ(r.descriptors[0].data, (std::vector<std::uint8_t>{0xB3, 0x15}));
    EXPECT_EQ(r.descriptors[1].type, pldm::kDescVendorDefined);
    EXPECT_EQ(r.descriptors[1].title, "PSID");
    EXPECT_EQ(r.components, std::vector<std::uint16_t>{static_cast<std::uint16_t>(i)});
    auto found = package->find_record(psids[i]);
    ASSERT_TRUE(found.has_value());
    auto fw = package->firmware(**found, 1u << 30);
    ASSERT_TRUE(fw.has_value()) << fw.error().message();
    EXPECT_EQ((*fw)->identifier, pldm::kComponentFirmware);
    EXPECT_EQ((*fw)->classification, pldm::kClassificationSoftwareBundle);
    EXPECT_EQ(extract_all(*package, **fw), images[i]);
  }
  EXPECT_EQ(package->components()[1].version, "20.41.1000");
  EXPECT_EQ(package->find_record("MT_NOT_THERE").error().code(), ErrorCode::NotFound);
  auto small = package->firmware(package->records()[1], 90000);
  ASSERT_FALSE(small.has_value());
  EXPECT_EQ(small.error().code(), ErrorCode::InvalidImage);
}

TEST(PldmPackage, WriterRefusesWhatTheFormatCannotCarry) {
  EXPECT_EQ(build_pldm({}).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(build_pldm({{.psid = "A", .image = {1}, .version = ""}, {.psid = "A", .image = {2}, .version = ""}}).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(build_pldm({{.psid = "A", .image = {}, .version = ""}}).error().code(), ErrorCode::InvalidArgument);
  std::vector<PldmInput> many;
  for (int i = 0; i < 256; ++i) many.push_back({.psid = "P" + std::to_string(i), .image = {1}, .version = ""});
  EXPECT_EQ(build_pldm(many).error().code(), ErrorCode::InvalidArgument);
  many.pop_back();  // 255 records: the kernel's byte-sized counts still hold them
  auto most = build_pldm(many);
  ASSERT_TRUE(most.has_value()) << most.error().message();
  auto package = PldmPackage::from_bytes(*most);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  EXPECT_EQ(package->records().size(), 255u);
  EXPECT_EQ(package->component_bitmap_bits(), 256);
  EXPECT_EQ(package->records()[254].components, std::vector<std::uint16_t>{254});
}

TEST(PldmPackage, AHeaderCrcThatLiesIsAMismatch) {
  auto bytes = two_record_package();
  const std::size_t header_size = le16_at(bytes, 17);
  bytes[header_size - 1] ^= 0x01;
  expect_refused(bytes, ErrorCode::Mismatch, "checksum");
  auto changed = two_record_package();
  changed[record_area(changed) + 20] ^= 0x40;  // a record byte, CRC left as it was
  expect_refused(changed, ErrorCode::Mismatch, "checksum");
}

TEST(PldmPackage, RefusesComponentsOutsideTheFileOrInTheHeader) {
  auto past = two_record_package();
  store_le32_at(past, component_info(past, 1) + 12, static_cast<std::uint32_t>(past.size() - 1000));
  expect_refused(refix_crc(past), ErrorCode::InvalidImage, "not between");
  auto huge = two_record_package();
  store_le32_at(huge, component_info(huge, 0) + 16, 0xFFFFFFFFu);
  expect_refused(refix_crc(huge), ErrorCode::InvalidImage, "not between");
  auto in_header = two_record_package();
  store_le32_at(in_header, component_info(in_header, 0) + 12, 4);
  expect_refused(refix_crc(in_header), ErrorCode::InvalidImage, "not between");
  auto truncated = two_record_package();
  truncated.resize(truncated.size() - 1);
  expect_refused(truncated, ErrorCode::InvalidImage, "not between");
}

TEST(PldmPackage, RefusesOverlappingComponents) {
  auto bytes = two_record_package();
  const std::uint32_t first = static_cast<std::uint32_t>(le16_at(bytes, 17));
  store_le32_at(bytes, component_info(bytes, 1) + 12, first + 100);  // inside component 0
  store_le32_at(bytes, component_info(bytes, 1) + 16, 1000);
  expect_refused(refix_crc(bytes), ErrorCode::InvalidImage, "overlap");
}

TEST(PldmPackage, RefusesHugeCountsAndLyingLengths) {
  auto records = two_record_package();
  records[record_area(records)] = 255;  // 253 records that are not there
  expect_refused(refix_crc(records), ErrorCode::InvalidImage, "device record 2");
  auto components = two_record_package();
  const std::size_t count_at = component_info(components, 0) - 2;
  components[count_at] = 0xFF;
  components[count_at + 1] = 0xFF;
  expect_refused(refix_crc(components), ErrorCode::InvalidImage, "bitmap");
  auto length = two_record_package();
  length[record_area(length) + 1] += 1;  // the first record's RecordLength
  expect_refused(refix_crc(length), ErrorCode::InvalidImage, "RecordLength");
  auto bitmap = two_record_package();
  bitmap[record_area(bitmap) + 1 + pldm::kRecordFixedSize] |= 0x80;  // component 7 of 2
  expect_refused(refix_crc(bitmap), ErrorCode::InvalidImage, "applies component 7");
  auto bits = two_record_package();
  bits[32] = 7;  // bitmap bit length not a multiple of 8
  expect_refused(refix_crc(bits), ErrorCode::InvalidImage, "multiple of 8");
  auto size = two_record_package();
  size[17] = 0xFF;
  size[18] = 0xFF;  // header size past... inside this file, but the areas end before it
  expect_refused(size, ErrorCode::Mismatch, "checksum");
  auto revision = two_record_package();
  revision[16] = 2;  // the 1.0 identifier with 1.1's revision
  expect_refused(revision, ErrorCode::InvalidImage, "format revision");
  auto descriptor = two_record_package();
  // The first descriptor (PCI vendor ID) claims 3 bytes: a standard type with the wrong size.
  descriptor[record_area(descriptor) + 1 + pldm::kRecordFixedSize + 1 + 10 + 2] = 3;
  expect_refused(refix_crc(descriptor), ErrorCode::InvalidImage, "not 2");
}

TEST(PldmPackage, EveryTruncationIsRefusedCleanly) {
  const auto bytes = two_record_package();
  const std::size_t header_size = le16_at(bytes, 17);
  for (std::size_t n = 0; n < header_size + 8; ++n) {
    auto package = PldmPackage::from_bytes(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n));
    EXPECT_FALSE(package.has_value()) << n;
  }
  EXPECT_FALSE(PldmPackage::has_header_identifier(Bytes(bytes).first(15)));
  EXPECT_TRUE(PldmPackage::has_header_identifier(bytes));
}

}  // namespace
}  // namespace openflint::test
