// image/Fs4Signature on a generated FS4 image: the key UUID's forms, the bytes a signature covers,
// signing with an in-memory key, verifying with it, and the refusals.
#include <gtest/gtest.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "image/Crc16.h"
#include "image/Fs4Image.h"
#include "image/Fs4Signature.h"
#include "image/Fs4Writer.h"
#include "image/SectionType.h"

namespace openflint {
namespace {

std::vector<std::uint8_t> fs4_image() {
  Fs4ImageSpec spec;
  spec.fw_version = {16, 35, 2000};
  spec.psid = "MT_0000000008";
  spec.supported_hw_ids = {0x20d};
  spec.sections = {{section_type::kMainCode, std::vector<std::uint8_t>(0x3000, 0x5a)}};
  spec.flash_size = 0x100000;
  return write_fs4_image(spec).value();
}

// A fresh RSA key as PEM text (OpenSSL generates it; nothing is stored).
std::vector<std::uint8_t> pem_key(unsigned bits) {
  EVP_PKEY* key = EVP_RSA_gen(bits);
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::vector<std::uint8_t> out(data, data + size);
  BIO_free(bio);
  EVP_PKEY_free(key);
  return out;
}

TEST(Fs4Signature, KeyUuidsParseWithOrWithoutSeparators) {
  const auto a = fs4::parse_key_uuid("01234567-89ab-cdef-0123-456789ABCDEF");
  const auto b = fs4::parse_key_uuid("0123456789abcdef0123456789abcdef");
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ((*a)[0], 0x01);
  EXPECT_EQ((*a)[15], 0xef);
  EXPECT_EQ(fs4::key_uuid_text(*a), "01234567-89ab-cdef-0123-456789abcdef");
  for (const char* bad : {"", "0123", "0123456789abcdef0123456789abcdef00", "0123456789abcdef0123456789abcdeg"}) {
    const auto r = fs4::parse_key_uuid(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code(), ErrorCode::InvalidArgument);
  }
}

TEST(Fs4Signature, TheSignedBytesEndAtTheLastItocSectionWithMagicAndSignatureMasked) {
  const auto image = fs4_image();
  const auto covered = fs4::signed_bytes(image, section_type::kImageSignature256);
  ASSERT_TRUE(covered.has_value()) << covered.error().message();
  const auto sections = fs4::read_signatures(image);
  ASSERT_TRUE(sections.has_value());
  ASSERT_EQ(sections->size(), 2u);
  EXPECT_LT(covered->size(), image.size() - 0x40000);  // the device data is not covered
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ((*covered)[i], 0xff);
  const auto& s256 = (*sections)[0];
  EXPECT_EQ(s256.type, section_type::kImageSignature256);
  EXPECT_EQ(s256.state, fs4::SignatureState::Blank);
  for (std::uint64_t i = 0; i < s256.size; ++i) ASSERT_EQ((*covered)[s256.address + i], 0xff);
  // The 512 section is covered by a 2048-bit signature (zeroed), masked for a 4096-bit one.
  const auto& s512 = (*sections)[1];
  EXPECT_EQ((*covered)[s512.address], 0x00);
  EXPECT_EQ(fs4::signed_bytes(image, section_type::kImageSignature512).value()[s512.address], 0xff);
}

TEST(Fs4Signature, ASignedImageVerifiesWithItsKeyAndStillVerifiesAsAnImage) {
  const auto image = fs4_image();
  const auto pem = pem_key(2048);
  const auto key = RsaKey::from_private_pem(pem, "key");
  ASSERT_TRUE(key.has_value()) << key.error().message();
  const auto uuid = fs4::parse_key_uuid("00112233445566778899aabbccddeeff").value();
  const auto signed_image = fs4::sign_image(image, *key, uuid);
  ASSERT_TRUE(signed_image.has_value()) << signed_image.error().message();
  const auto report = fs4::verify(*signed_image, 0);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->bootable());
  const auto pub = RsaKey::from_public_pem(pem, "key");
  ASSERT_TRUE(pub.has_value());
  const auto sections = fs4::read_signatures(*signed_image, &*pub);
  ASSERT_TRUE(sections.has_value());
  EXPECT_EQ((*sections)[0].state, fs4::SignatureState::Signed);
  EXPECT_EQ((*sections)[0].key_uuid, uuid);
  EXPECT_EQ((*sections)[0].matches, std::optional<bool>{true});
  EXPECT_EQ((*sections)[1].state, fs4::SignatureState::Blank);
  // Outside the covered range (the device data) a change keeps the signature; inside, it breaks it.
  auto changed = *signed_image;
  changed[changed.size() - 0x30000] ^= 0xff;
  EXPECT_EQ(fs4::read_signatures(changed, &*pub).value()[0].matches, std::optional<bool>{true});
  changed = *signed_image;
  const std::uint64_t gap = (*sections)[0].address - 0x10;  // the 0xff gap after IMAGE_INFO: no CRC
  ASSERT_EQ(changed[gap], 0xff);
  changed[gap] = 0;
  EXPECT_EQ(fs4::read_signatures(changed, &*pub).value()[0].matches, std::optional<bool>{false});
}

TEST(Fs4Signature, NotFs4AndOtherKeySizesAreRefused) {
  const auto key = RsaKey::from_private_pem(pem_key(1024), "small").value();
  const auto uuid = fs4::KeyUuid{};
  const auto small = fs4::sign_image(fs4_image(), key, uuid);
  ASSERT_FALSE(small.has_value());
  EXPECT_EQ(small.error().code(), ErrorCode::InvalidArgument);
  const auto big = RsaKey::from_private_pem(pem_key(2048), "k").value();
  const auto not_fs4 = fs4::sign_image(std::vector<std::uint8_t>(0x10000, 0xff), big, uuid);
  ASSERT_FALSE(not_fs4.has_value());
  EXPECT_EQ(not_fs4.error().code(), ErrorCode::NotSupported);
  const std::string junk = "not a key";
  const auto bad = RsaKey::from_private_pem(Bytes(reinterpret_cast<const std::uint8_t*>(junk.data()), junk.size()), "junk.pem");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::InvalidArgument);
}

TEST(Fs4Signature, AnImageWithAHashesTableIsNotSigned) {
  auto image = fs4_image();
  std::uint8_t* entry = &image[0x18 + 15 * 8];  // the hashes_table HW pointer
  store_be32(entry, 0x6000);
  store_be32(entry + 4, 0);
  store_be32(entry + 4, crc16_hw(Bytes(entry, 6)));
  const auto key = RsaKey::from_private_pem(pem_key(2048), "k").value();
  for (const auto& r : {fs4::sign_image(image, key, fs4::KeyUuid{}), fs4::insert_digest(image)}) {
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code(), ErrorCode::NotSupported) << r.error().message();
    EXPECT_NE(r.error().message().find("hashes table"), std::string::npos) << r.error().message();
  }
}

}  // namespace
}  // namespace openflint
