// Tests: the PLDM reader on DSP0267 1.1, 1.2 and 1.3 packages laid out here field by field (downstream
// device records, component opaque data, reference manifests, the payload checksum).
#include <gtest/gtest.h>

#include <string>

#include "image/Crc32.h"
#include "image/PldmFormat.h"
#include "image/PldmPackage.h"

namespace openflint::test {
namespace {

void le16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
void le32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void text(std::vector<std::uint8_t>& out, const std::string& s) { out.insert(out.end(), s.begin(), s.end()); }

struct HandRecord {
  bool downstream = false;
  std::string psid;           // empty: a record with only a UUID descriptor
  std::uint8_t bitmap = 0;    // one bitmap byte (8 components at most here)
  std::uint32_t flags = 0;
  std::size_t package_data = 0;
  std::size_t manifest = 0;   // 1.3
};

std::vector<std::uint8_t> record_bytes(const HandRecord& r, std::uint8_t revision) {
  std::vector<std::uint8_t> descriptors;
  if (r.psid.empty()) {
    le16(descriptors, pldm::kDescUuid);
    le16(descriptors, 16);
    descriptors.insert(descriptors.end(), 16, 0xAB);
  } else {
    le16(descriptors, pldm::kDescIanaEnterpriseId);
    le16(descriptors, 4);
    le32(descriptors, 5703);  // Mellanox's IANA number
    std::vector<std::uint8_t> vd = {1, 4};
    text(vd, "PSID");
    text(vd, r.psid);
    le16(descriptors, pldm::kDescVendorDefined);
    le16(descriptors, static_cast<std::uint16_t>(vd.size()));
    descriptors.insert(descriptors.end(), vd.begin(), vd.end());
  }
  const std::string version = r.downstream ? "min-1.0" : "set-2.0";
  std::vector<std::uint8_t> body;
  body.push_back(static_cast<std::uint8_t>(r.psid.empty() ? 1 : 2));
  le32(body, r.flags);
  body.push_back(1);
  body.push_back(static_cast<std::uint8_t>(version.size()));
  le16(body, static_cast<std::uint16_t>(r.package_data));
  if (revision >= 4) le32(body, static_cast<std::uint32_t>(r.manifest));
  body.push_back(r.bitmap);
  text(body, version);
  if (r.downstream && (r.flags & 1) != 0) le32(body, 0x01020304);
  body.insert(body.end(), descriptors.begin(), descriptors.end());
  body.insert(body.end(), r.package_data, 0x5A);
  if (revision >= 4) body.insert(body.end(), r.manifest, 0xA5);
  std::vector<std::uint8_t> out;
  le16(out, static_cast<std::uint16_t>(body.size() + 2));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

// A package of `revision` (1-4) with `records` and one component per image.
std::vector<std::uint8_t> hand_package(std::uint8_t revision, const std::vector<HandRecord>& records,
                                       const std::vector<std::vector<std::uint8_t>>& images) {
  const auto& id = pldm::kHeaderVersions[revision - 1];
  std::vector<std::uint8_t> h(id.identifier.begin(), id.identifier.end());
  h.push_back(revision);
  le16(h, 0);
  h.insert(h.end(), 13, 0);
  le16(h, 8);
  const std::string version = "v" + std::to_string(revision);
  h.push_back(1);
  h.push_back(static_cast<std::uint8_t>(version.size()));
  text(h, version);
  for (const bool downstream : {false, true}) {
    if (downstream && revision < pldm::kRevisionDownstream) break;
    std::size_t count = 0;
    for (const auto& r : records) count += r.downstream == downstream ? 1 : 0;
    h.push_back(static_cast<std::uint8_t>(count));
    for (const auto& r : records)
      if (r.downstream == downstream) {
        const auto bytes = record_bytes(r, revision);
        h.insert(h.end(), bytes.begin(), bytes.end());
      }
  }
  le16(h, static_cast<std::uint16_t>(images.size()));
  const std::size_t opaque = revision >= pldm::kRevisionOpaqueData ? 4 + 3 : 0;
  const std::size_t checksums = revision >= pldm::kRevisionPayloadChecksum ? 8 : 4;
  std::size_t offset = h.size() + images.size() * (22 + 2 + opaque) + checksums + 16;  // 16 bytes of padding first
  const std::size_t header_size = h.size() + images.size() * (22 + 2 + opaque) + checksums;
  for (std::size_t i = 0; i < images.size(); ++i) {
    le16(h, 0x000A);
    le16(h, static_cast<std::uint16_t>(i == 0 ? 1 : 0x10 + i));
    le32(h, 0xFFFFFFFF);
    le16(h, 0);
    le16(h, 0);
    le32(h, static_cast<std::uint32_t>(offset));
    le32(h, static_cast<std::uint32_t>(images[i].size()));
    h.push_back(1);
    h.push_back(2);
    text(h, "c" + std::to_string(i));
    if (opaque != 0) {
      le32(h, 3);
      text(h, "opq");
    }
    offset += images[i].size();
  }
  h[17] = static_cast<std::uint8_t>(header_size);
  h[18] = static_cast<std::uint8_t>(header_size >> 8);
  le32(h, crc32(h));
  std::vector<std::uint8_t> payload(16, 0xEE);
  for (const auto& image : images) payload.insert(payload.end(), image.begin(), image.end());
  if (revision >= pldm::kRevisionPayloadChecksum) le32(h, crc32(payload));
  h.insert(h.end(), payload.begin(), payload.end());
  return h;
}

const std::vector<std::vector<std::uint8_t>> kImages = {std::vector<std::uint8_t>(3000, 0x11),
                                                        std::vector<std::uint8_t>(5000, 0x22)};

class PldmVersions : public ::testing::TestWithParam<int> {};

TEST_P(PldmVersions, ReadsRecordsAndComponentsOfEveryRevision) {
  const auto revision = static_cast<std::uint8_t>(GetParam());
  std::vector<HandRecord> records = {{.psid = "MT_0000000101", .bitmap = 0x01, .package_data = 5, .manifest = 7},
                                     {.psid = "", .bitmap = 0x02}};
  if (revision >= pldm::kRevisionDownstream)
    records.push_back({.downstream = true, .psid = "MT_DOWNSTREAM", .bitmap = 0x02, .flags = 1, .package_data = 3, .manifest = 2});
  auto package = PldmPackage::from_bytes(hand_package(revision, records, kImages));
  ASSERT_TRUE(package.has_value()) << package.error().message();
  EXPECT_EQ(package->format_revision(), revision);
  EXPECT_EQ(std::string(package->spec_version()), "1." + std::to_string(revision - 1));
  EXPECT_EQ(package->version(), "v" + std::to_string(revision));
  EXPECT_EQ(package->release_date(), "");
  ASSERT_EQ(package->records().size(), records.size());
  EXPECT_EQ(package->records()[0].package_data_size, 5);
  EXPECT_EQ(package->records()[0].reference_manifest_size, revision >= 4 ? 7u : 0u);
  EXPECT_EQ(package->records()[1].psid, "");
  if (revision >= pldm::kRevisionDownstream) {
    EXPECT_TRUE(package->records()[2].downstream);
    EXPECT_EQ(package->records()[2].psid, "MT_DOWNSTREAM");
    EXPECT_EQ(package->records()[2].components, std::vector<std::uint16_t>{1});
    // A downstream record is listed, never picked for --psid.
    EXPECT_EQ(package->find_record("MT_DOWNSTREAM").error().code(), ErrorCode::NotFound);
  }
  EXPECT_EQ(package->components()[1].opaque_data_size, revision >= 3 ? 3u : 0u);
  auto record = package->find_record("MT_0000000101");
  ASSERT_TRUE(record.has_value());
  auto fw = package->firmware(**record, 1u << 20);
  ASSERT_TRUE(fw.has_value()) << fw.error().message();
  std::vector<std::uint8_t> out;
  ASSERT_TRUE(package->extract(**fw, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  }).has_value());
  EXPECT_EQ(out, kImages[0]);
}

INSTANTIATE_TEST_SUITE_P(Dsp0267, PldmVersions, ::testing::Values(1, 2, 3, 4));

TEST(PldmVersions, APayloadChecksumThatLiesIsAMismatch) {
  auto bytes = hand_package(4, {{.psid = "MT_0000000101", .bitmap = 0x03}}, kImages);
  ASSERT_TRUE(PldmPackage::from_bytes(bytes).has_value());
  bytes.back() ^= 0x80;  // a payload byte: the header CRC still holds
  auto package = PldmPackage::from_bytes(bytes);
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), ErrorCode::Mismatch);
  EXPECT_NE(package.error().message().find("payload checksum"), std::string::npos) << package.error().message();
}

TEST(PldmVersions, AnIdentifierWithAnotherRevisionIsRefused) {
  auto bytes = hand_package(2, {{.psid = "MT_0000000101", .bitmap = 0x03}}, kImages);
  bytes[16] = 1;  // the 1.1 identifier, 1.0's revision
  auto package = PldmPackage::from_bytes(bytes);
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), ErrorCode::InvalidImage);
}

TEST(PldmVersions, TwoComponentsOneRecordPicksIdentifierOne) {
  auto package = PldmPackage::from_bytes(hand_package(3, {{.psid = "MT_0000000101", .bitmap = 0x03}}, kImages));
  ASSERT_TRUE(package.has_value()) << package.error().message();
  auto fw = package->firmware(package->records()[0], 1u << 20);
  ASSERT_TRUE(fw.has_value());
  EXPECT_EQ((*fw)->identifier, 1);
  EXPECT_EQ((*fw)->size, 3000u);
}

}  // namespace
}  // namespace openflint::test
