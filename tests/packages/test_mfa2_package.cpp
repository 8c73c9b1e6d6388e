// Tests: the MFA2 reader on packages our writer builds — round trip, bounded extraction, hostile files.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "core/ByteReader.h"
#include "core/MemorySource.h"
#include "image/Mfa2Format.h"
#include "image/Mfa2Package.h"
#include "image/Mfa2Writer.h"

namespace openflint::test {
namespace {

// Compressible, seed-dependent bytes (firmware-like).
std::vector<std::uint8_t> fake_image(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> out(size);
  std::uint32_t x = seed * 2654435761u + 7;
  for (std::size_t i = 0; i < size; ++i) {
    x = x * 1664525u + 1013904223u;
    out[i] = (i % 32 < 4) ? static_cast<std::uint8_t>(x >> 24) : static_cast<std::uint8_t>(i / 32 + seed);
  }
  return out;
}

std::vector<std::uint8_t> two_device_package() {
  auto package = build_mfa2({{"MT_0000000011", fake_image(70000, 1)}, {"MT_0000000022", fake_image(90001, 2)}}, 1);
  if (!package) {
    ADD_FAILURE() << package.error().message();
    return {};
  }
  return *package;
}

std::vector<std::uint8_t> extract_all(const Mfa2Package& package, const Mfa2Component& component) {
  std::vector<std::uint8_t> out;
  auto done = package.extract(component, [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  });
  EXPECT_TRUE(done.has_value()) << done.error().message();
  return out;
}

// Offsets of the writer's layout (image/Mfa2Writer.cpp): the package descriptor's payload,
// then each device multi-part and each component multi-part.
constexpr std::size_t kPd = 16 + 8 + 4;
constexpr std::size_t kSha = 16 + 8 + 32;              // the 0x2F TLV, then the 0x30 TLV
constexpr std::size_t kDevices = kSha + 2 * (4 + 32);  // the first device multi-part
std::size_t cb_offset_of(const std::vector<std::uint8_t>& p) { return ByteReader::load_be32(p.data() + kPd + 4); }

// The first component descriptor's payload: after the package multi-part and the devices.
std::size_t first_component_payload(const std::vector<std::uint8_t>& p) {
  std::size_t at = kDevices;
  for (int i = 0; i < 2; ++i) {  // two device multi-parts: 8 + PSID (4 + 13 -> 20) + pointer (12)
    const std::size_t total = (p[at + 6] << 8) | p[at + 7];
    at += 8 + total;
  }
  return at + 8 + 4;
}

// The package with its SHA-256 extensions retyped as padding (0x31): the reader skips them, so
// a test's change to the descriptors or the CB meets the check it is about, not the digests.
std::vector<std::uint8_t> without_digests(std::vector<std::uint8_t> bytes) {
  EXPECT_EQ(bytes[kSha + 1], mfa2::kTlvSha256);
  EXPECT_EQ(bytes[kSha + 36 + 1], mfa2::kTlvDescriptorsSha256);
  bytes[kSha + 1] = 0x31;
  bytes[kSha + 36 + 1] = 0x31;
  return bytes;
}

Result<Mfa2Package> reopen(std::vector<std::uint8_t> bytes) { return Mfa2Package::from_bytes(std::move(bytes)); }

void expect_invalid(std::vector<std::uint8_t> bytes, const std::string& fragment) {
  auto package = reopen(std::move(bytes));
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), ErrorCode::InvalidImage) << package.error().message();
  EXPECT_NE(package.error().message().find(fragment), std::string::npos) << package.error().message();
}

TEST(Mfa2Package, RoundTripPerPsid) {
  const auto bytes = two_device_package();
  auto package = reopen(bytes);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  ASSERT_EQ(package->devices().size(), 2u);
  ASSERT_EQ(package->components().size(), 2u);
  EXPECT_TRUE(package->cb_compressed());
  for (std::uint32_t seed : {1u, 2u}) {
    const std::string psid = seed == 1 ? "MT_0000000011" : "MT_0000000022";
    auto device = package->find_device(psid);
    ASSERT_TRUE(device.has_value());
    auto fw = package->firmware(**device, 1u << 24);
    ASSERT_TRUE(fw.has_value()) << fw.error().message();
    EXPECT_EQ((*fw)->identifier, mfa2::kComponentFirmware);
    EXPECT_EQ(extract_all(*package, **fw), fake_image(seed == 1 ? 70000 : 90001, seed));
  }
  EXPECT_EQ(package->find_device("MT_0000000033").error().code(), ErrorCode::NotFound);
  auto device = package->find_device("MT_0000000022");
  EXPECT_EQ(package->firmware(**device, 1000).error().code(), ErrorCode::InvalidImage);  // larger than any "flash"
}

TEST(Mfa2Package, WriterRefusesBadInput) {
  EXPECT_EQ(build_mfa2({}).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(build_mfa2({{"A", {1}}, {"A", {2}}}).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(build_mfa2({{"", {1}}}).error().code(), ErrorCode::InvalidArgument);
  EXPECT_EQ(build_mfa2({{"A", {}}}).error().code(), ErrorCode::InvalidArgument);
}

// Counts how far into the file the reader reads.
class WatchedSource : public ByteSource {
 public:
  explicit WatchedSource(std::vector<std::uint8_t> bytes) : inner_(std::move(bytes)) {}
  std::uint64_t size() const override { return inner_.size(); }
  Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    furthest_ = std::max<std::uint64_t>(furthest_, offset + out.size());
    return inner_.read(offset, out);
  }
  mutable std::atomic<std::uint64_t> furthest_{0};

 private:
  MemorySource inner_;
};

TEST(Mfa2Package, ExtractDecodesOnlyUpToTheComponentsEnd) {
  // A second component of incompressible bytes: the first one's extraction must not read it.
  std::vector<std::uint8_t> noise(3u << 20);
  std::uint32_t x = 5;
  for (auto& b : noise) b = static_cast<std::uint8_t>((x = x * 1664525u + 1013904223u) >> 24);
  auto bytes = build_mfa2({{"FIRST", fake_image(20000, 3)}, {"SECOND", noise}}, 0);
  ASSERT_TRUE(bytes.has_value());
  const std::size_t file_size = bytes->size();
  auto source = std::make_shared<WatchedSource>(std::move(*bytes));
  auto package = Mfa2Package::from_source(source);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  const auto opened_reads = source->furthest_.load();
  auto fw = package->firmware(**package->find_device("FIRST"), 1u << 24);
  ASSERT_TRUE(fw.has_value());
  EXPECT_EQ(extract_all(*package, **fw), fake_image(20000, 3));
  // The xz index and footer are read at open (the file's end); extraction reads the CB from
  // its start in 64 KiB pieces, so it must stop long before the 3 MiB of noise end.
  (void)opened_reads;
  source->furthest_ = 0;
  ASSERT_TRUE(package->extract(**fw, [](Bytes) -> Result<void> { return {}; }).has_value());
  EXPECT_LT(source->furthest_.load(), file_size / 4) << "extraction read past the first component";
}

TEST(Mfa2Package, BadFingerprint) {
  auto bytes = two_device_package();
  bytes[5] ^= 1;
  expect_invalid(bytes, "fingerprint");
  expect_invalid(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 10), "fingerprint");
}

TEST(Mfa2Package, TlvLengthPastTheEnd) {
  auto bytes = two_device_package();
  // The first device's PSID TLV (after its multi-part header) claims 0xfff0 bytes.
  const std::size_t psid_tlv = kDevices + 8;
  ASSERT_EQ(bytes[psid_tlv + 1], mfa2::kTlvPsid);
  bytes[psid_tlv + 2] = 0xff;
  bytes[psid_tlv + 3] = 0xf0;
  expect_invalid(bytes, "runs past the descriptors");
}

TEST(Mfa2Package, MultiPartChildrenPastTheEnd) {
  auto bytes = two_device_package();
  bytes[16 + 6] = 0xff;  // the package multi-part's total_len
  expect_invalid(bytes, "past the descriptors");
  auto more = two_device_package();
  more[16 + 5] = 9;  // ten children in the package multi-part
  auto package = reopen(more);
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), ErrorCode::InvalidImage);
}

TEST(Mfa2Package, PointerOutsideTheFile) {
  auto bytes = two_device_package();
  store_be32(bytes.data() + kPd + 4, static_cast<std::uint32_t>(bytes.size() + 64));  // cb_offset
  expect_invalid(bytes, "past the end of the file");
  auto big = two_device_package();
  store_be32(big.data() + kPd + 8, static_cast<std::uint32_t>(big.size()));  // cb_archive_size
  expect_invalid(big, "component block at");
  auto count = two_device_package();
  store_be16(count.data() + kPd + 2, 40);  // num_devices
  auto package = reopen(count);
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), ErrorCode::InvalidImage);
}

TEST(Mfa2Package, ComponentPointerToNoComponent) {
  auto bytes = two_device_package();
  const std::size_t ptr = kDevices + 8 + 20;  // first device's COMPONENT_PTR TLV
  ASSERT_EQ(bytes[ptr + 1], mfa2::kTlvComponentPtr);
  store_be16(bytes.data() + ptr + 4 + 2, 7);
  expect_invalid(bytes, "names component 7");
}

TEST(Mfa2Package, ComponentPastTheDecompressedBlock) {
  auto bytes = two_device_package();
  const std::size_t desc = first_component_payload(bytes);
  store_be32(bytes.data() + desc + 12, 0x7fffffff);  // size
  expect_invalid(bytes, "past the end of the component block");
  auto overlap = two_device_package();
  store_be32(overlap.data() + first_component_payload(overlap) + 12, 80000);
  expect_invalid(overlap, "overlap");
  auto declared = two_device_package();
  store_be32(declared.data() + kPd + 16, 12345);  // cb_size_l
  expect_invalid(declared, "its descriptor says");
}

TEST(Mfa2Package, WrongComponentMagic) {
  auto bytes = without_digests(two_device_package());
  const std::size_t desc = first_component_payload(bytes);
  // Point 4 bytes into the first component and shrink it: in bounds, but not at its magic.
  store_be32(bytes.data() + desc + 8, 4);
  store_be32(bytes.data() + desc + 12, 70000 - 4);
  auto package = reopen(bytes);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  auto fw = package->firmware(**package->find_device("MT_0000000011"), 1u << 24);
  ASSERT_TRUE(fw.has_value());
  auto done = package->extract(**fw, [](Bytes) -> Result<void> { return {}; });
  ASSERT_FALSE(done.has_value());
  EXPECT_EQ(done.error().code(), ErrorCode::InvalidImage);
  EXPECT_NE(done.error().message().find("#BIN.COMPONENT!#"), std::string::npos);
}

TEST(Mfa2Package, TruncatedXz) {
  auto bytes = two_device_package();
  bytes.resize(bytes.size() - 20);
  expect_invalid(bytes, "component block");
  // The CB's size cut to match: the stream itself is cut short (no footer, no index).
  auto cut = two_device_package();
  cut.resize(cut.size() - 20);
  store_be32(cut.data() + kPd + 8, static_cast<std::uint32_t>(cut.size() - cb_offset_of(cut)));
  auto package = reopen(cut);
  ASSERT_FALSE(package.has_value());
  EXPECT_EQ(package.error().code(), ErrorCode::InvalidImage);
}

TEST(Mfa2Package, CorruptXzDataFailsOnExtraction) {
  auto bytes = without_digests(two_device_package());
  const std::size_t cb = cb_offset_of(bytes);
  bytes[cb + 200] ^= 0x55;  // inside the LZMA2 data; header, index and footer intact
  auto package = reopen(bytes);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  bool failed = false;
  for (const auto& device : package->devices()) {
    auto fw = package->firmware(device, 1u << 24);
    ASSERT_TRUE(fw.has_value());
    std::vector<std::uint8_t> out;
    auto done = package->extract(**fw, [&out](Bytes c) -> Result<void> {
      out.insert(out.end(), c.begin(), c.end());
      return {};
    });
    if (!done) {
      EXPECT_EQ(done.error().code(), ErrorCode::InvalidImage);
      failed = true;
    }
  }
  EXPECT_TRUE(failed) << "a corrupted stream was extracted without error";
}

TEST(Mfa2Package, Sha256ExtensionsAreCheckedAndAMismatchReported) {
  const auto bytes = two_device_package();
  auto good = reopen(bytes);
  ASSERT_TRUE(good.has_value()) << good.error().message();
  EXPECT_TRUE(good->has_sha256());
  auto stripped = reopen(without_digests(bytes));
  ASSERT_TRUE(stripped.has_value()) << stripped.error().message();
  EXPECT_FALSE(stripped->has_sha256());
  // A byte of the stored component block: only the package digest (0x2F) covers it.
  auto cb = bytes;
  cb[cb_offset_of(cb) + 100] ^= 1;
  EXPECT_TRUE(good->sha256_mismatch().empty()) << good->sha256_mismatch();
  // A mismatch is reported, not refused (image/Mfa2Package.h says why).
  auto package = reopen(cb);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  EXPECT_NE(package->sha256_mismatch().find("0x2F"), std::string::npos) << package->sha256_mismatch();
  // A descriptor field the reader does not use (a component pointer's storage address).
  auto desc = bytes;
  desc[kDevices + 8 + 20 + 4 + 7] ^= 1;
  package = reopen(desc);
  ASSERT_TRUE(package.has_value()) << package.error().message();
  EXPECT_NE(package->sha256_mismatch().find("0x30"), std::string::npos) << package->sha256_mismatch();
}

// Every single-byte change and every truncation of the descriptors: an error or a package,
// never a read outside the buffer (the sanitizer builds catch one).
TEST(Mfa2Package, EveryDescriptorByteFlippedAndEveryTruncation) {
  const auto bytes = without_digests(two_device_package());
  const std::size_t cb = cb_offset_of(bytes);
  for (std::size_t i = 0; i < cb + 64 && i < bytes.size(); ++i) {
    for (std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      auto copy = bytes;
      copy[i] ^= mask;
      auto package = reopen(copy);
      if (!package) continue;
      for (const auto& device : package->devices()) {
        auto fw = package->firmware(device, 1u << 24);
        if (fw) (void)package->extract(**fw, [](Bytes) -> Result<void> { return {}; });
      }
    }
    auto cut = reopen(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(i)));
    EXPECT_FALSE(cut.has_value()) << "truncated at " << i;
  }
}

}  // namespace
}  // namespace openflint::test
