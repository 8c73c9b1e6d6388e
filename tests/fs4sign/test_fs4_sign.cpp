// flint sign on FS4 images: the signature sections of a generated ConnectX-5 sample, signed with
// a key made at test time (openssl genrsa; no key is ever committed), checked three ways: the real
// mstflint's own `sign` with the same key and UUID writes the very same image bytes, mstflint
// still verifies and queries the result, and `openssl dgst -verify` accepts our signature over the
// signed bytes; without a key, the SHA-256 digest is mstflint's too. The real Spectrum-2 images'
// SHA-256 digest sections check which bytes are covered.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "image/Fs4Signature.h"
#include "image/SectionType.h"
#include "tests/support/TestSupport.h"

namespace openflint {
namespace {

constexpr const char* kUuid = "01234567-89ab-cdef-0123-456789abcdef";

class Fs4Sign : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_program("openssl")) GTEST_SKIP() << "the openssl program is not installed";
    sample_ = test::sample_image("connectx5-old");
    ASSERT_TRUE(std::filesystem::exists(sample_)) << sample_;
    std::filesystem::copy_file(sample_, image_);
  }
  // A fresh RSA key of `bits` in the test's directory; returns its path.
  std::string make_key(int bits, const std::string& name) {
    const std::string path = (dir_ / name).string();
    const auto r = test::run_command({"openssl", "genrsa", "-out", path, std::to_string(bits)});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return path;
  }
  std::string public_of(const std::string& key) {
    const std::string path = key + ".pub";
    const auto r = test::run_command({"openssl", "rsa", "-in", key, "-pubout", "-out", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return path;
  }
  test::CommandResult flint(std::vector<std::string> args) {
    args.insert(args.begin(), {"-i", image_.string()});
    return test::run_tool("flint", args);
  }
  test::TempDir dir_;
  std::filesystem::path sample_;
  std::filesystem::path image_ = dir_ / "img.bin";
};

TEST_F(Fs4Sign, AGeneratedImageCarriesBlankSignatureSections) {
  const auto v = flint({"v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("Image signature:       unsigned (IMAGE_SIGNATURE_256)"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("Image signature:       unsigned (IMAGE_SIGNATURE_512)"), std::string::npos) << v.out;
  for (const char* name : {"IMAGE_SIGNATURE_256", "PUBLIC_KEYS_2048", "IMAGE_SIGNATURE_512", "PUBLIC_KEYS_4096"})
    EXPECT_NE(v.out.find(std::string("(") + name + ") - OK"), std::string::npos) << name << "\n" << v.out;
}

TEST_F(Fs4Sign, SignedWithA2048BitKeyTheImageVerifiesWithItsPublicKeyOnly) {
  const std::string key = make_key(2048, "k.pem"), other = make_key(2048, "other.pem");
  const auto s = flint({"sign", "--private_key", key, "--key_uuid", kUuid});
  ASSERT_EQ(s.exit_code, 0) << s.out << s.err;
  EXPECT_NE(s.out.find("2048-bit key (IMAGE_SIGNATURE_256, key UUID " + std::string(kUuid) + ")"), std::string::npos)
      << s.out;
  const auto v = flint({"v", "--public_key", public_of(key)});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("signed, key UUID " + std::string(kUuid) + ", verified with the public key (IMAGE_SIGNATURE_256)"),
            std::string::npos) << v.out;
  const auto plain = flint({"v"});
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  const auto wrong = flint({"v", "--public_key", public_of(other)});
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out;
  EXPECT_NE(wrong.out.find("does not match the public key"), std::string::npos) << wrong.out;
  const auto json = flint({"q", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  ASSERT_TRUE(doc.contains("signatures")) << json.out;
  EXPECT_EQ(doc["signatures"][0]["state"], "signed");
  EXPECT_EQ(doc["signatures"][0]["key_uuid"], kUuid);
}

TEST_F(Fs4Sign, AByteChangedInTheCoveredRangeBreaksTheSignature) {
  const std::string key = make_key(2048, "k.pem");
  ASSERT_EQ(flint({"sign", "--private_key", key, "--key_uuid", kUuid}).exit_code, 0);
  auto bytes = test::read_file(image_);
  // In the 0xff gap after FW_MAIN_CFG (0x3000, 0xa80 bytes): covered by the signature, by no CRC.
  ASSERT_EQ(bytes[0x3f00], 0xff);
  bytes[0x3f00] = 0xfe;
  test::write_file(image_, bytes);
  const auto v = flint({"v", "--public_key", public_of(key)});
  EXPECT_EQ(v.exit_code, 1) << v.out;
  EXPECT_NE(v.out.find("does not match the public key"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("Image is bootable"), std::string::npos) << v.out;
}

TEST_F(Fs4Sign, OpensslVerifiesOurSignatureOverTheSignedBytes) {
  for (const int bits : {2048, 4096}) {
    std::filesystem::copy_file(sample_, image_, std::filesystem::copy_options::overwrite_existing);
    const std::string key = make_key(bits, "k" + std::to_string(bits) + ".pem");
    ASSERT_EQ(flint({"sign", "--private_key", key, "--key_uuid", kUuid}).exit_code, 0);
    const auto image = test::read_file(image_);
    const std::uint8_t type = bits == 2048 ? section_type::kImageSignature256 : section_type::kImageSignature512;
    const auto covered = fs4::signed_bytes(image, type);
    ASSERT_TRUE(covered.has_value()) << covered.error().message();
    const auto sections = fs4::read_signatures(image);
    ASSERT_TRUE(sections.has_value());
    const auto* section = [&]() -> const fs4::SignatureInfo* {
      for (const auto& s : *sections)
        if (s.type == type) return &s;
      return nullptr;
    }();
    ASSERT_NE(section, nullptr);
    EXPECT_EQ(fs4::key_uuid_text(section->key_uuid), kUuid);
    const auto from = image.begin() + static_cast<std::ptrdiff_t>(section->address + fs4::kSignatureOffset);
    test::write_file(dir_ / "covered.bin", *covered);
    test::write_file(dir_ / "sig.bin", std::vector<std::uint8_t>(from, from + bits / 8));
    const auto r = test::run_command({"openssl", "dgst", bits == 2048 ? "-sha256" : "-sha512", "-verify",
                                      public_of(key), "-signature", (dir_ / "sig.bin").string(),
                                      (dir_ / "covered.bin").string()});
    EXPECT_EQ(r.exit_code, 0) << bits << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("Verified OK"), std::string::npos) << r.out;
  }
}

TEST_F(Fs4Sign, MstflintsOwnSignWritesTheSameBytes) {
  if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
  for (const int bits : {2048, 4096}) {
    std::filesystem::copy_file(sample_, image_, std::filesystem::copy_options::overwrite_existing);
    const auto theirs = dir_ / "theirs.bin";
    std::filesystem::copy_file(sample_, theirs, std::filesystem::copy_options::overwrite_existing);
    const std::string key = make_key(bits, "k" + std::to_string(bits) + ".pem");
    const auto ours = flint({"sign", "--private_key", key, "--key_uuid", kUuid});
    ASSERT_EQ(ours.exit_code, 0) << ours.out << ours.err;
    const auto m = test::run_command({"mstflint", "-i", theirs.string(), "--private_key", key, "--key_uuid", kUuid, "sign"});
    ASSERT_EQ(m.exit_code, 0) << m.out << m.err;
    const auto a = test::read_file(image_), b = test::read_file(theirs);
    ASSERT_EQ(a.size(), b.size());
    std::size_t first = a.size();
    for (std::size_t i = 0; i < a.size() && first == a.size(); ++i)
      if (a[i] != b[i]) first = i;
    EXPECT_EQ(first, a.size()) << bits << "-bit key: the images differ first at byte 0x" << std::hex << first;
    EXPECT_NE(test::read_file(sample_), a) << "signing changed nothing";
  }
}

TEST_F(Fs4Sign, WithoutAKeyTheDigestIsWhatMstflintWrites) {
  const auto ours = flint({"sign"});
  ASSERT_EQ(ours.exit_code, 0) << ours.out << ours.err;
  const auto v = flint({"v"});
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_NE(v.out.find("Image signature:       digest (SHA-256, matches) (IMAGE_SIGNATURE_256)"), std::string::npos)
      << v.out;
  if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
  const auto theirs = dir_ / "theirs.bin";
  std::filesystem::copy_file(sample_, theirs);
  const auto m = test::run_command({"mstflint", "-i", theirs.string(), "sign"});
  ASSERT_EQ(m.exit_code, 0) << m.out << m.err;
  EXPECT_TRUE(test::read_file(image_) == test::read_file(theirs)) << "our digest section differs from mstflint's";
}

TEST_F(Fs4Sign, MstflintVerifiesAndQueriesOurSignedImage) {
  if (!test::have_program("mstflint")) GTEST_SKIP() << "mstflint is not installed; interop not checked";
  const std::string key = make_key(2048, "k.pem");
  ASSERT_EQ(flint({"sign", "--private_key", key, "--key_uuid", kUuid}).exit_code, 0);
  const auto v = test::run_command({"mstflint", "-i", image_.string(), "v"});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("(IMAGE_SIGNATURE_256) - OK"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("FW image verification succeeded. Image is bootable."), std::string::npos) << v.out;
  const auto q = test::run_command({"mstflint", "-i", image_.string(), "q"});
  EXPECT_EQ(q.exit_code, 0) << q.out << q.err;
  EXPECT_NE(q.out.find("Security Attributes:"), std::string::npos) << q.out;
}

TEST_F(Fs4Sign, BadInputIsRefusedWithOneLineAndTheImageIsKept) {
  const std::string key = make_key(2048, "k.pem"), small = make_key(1024, "small.pem");
  const auto before = test::read_file(image_);
  const auto not_pem = dir_ / "junk.pem";
  test::write_file(not_pem, {'n', 'o', 't', '\n'});
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<Case> cases{
      {{"sign", "--private_key", key, "--key_uuid", "0123"}, 2, "must have 32 hex digits"},
      {{"sign", "--private_key", key, "--key_uuid", "0123456789abcdef0123456789abcdeg"}, 2, "only hex digits"},
      {{"sign", "--private_key", not_pem.string(), "--key_uuid", kUuid}, 2, "not a PEM RSA private key"},
      {{"sign", "--private_key", small, "--key_uuid", kUuid}, 2, "the key has 1024 bits"},
      {{"sign", "--private_key", key}, 2, "--key_uuid"},
      {{"sign", "--private_key", (dir_ / "missing.pem").string(), "--key_uuid", kUuid}, 4, "missing.pem"},
  };
  for (const auto& c : cases) {
    const auto r = flint(c.args);
    EXPECT_EQ(r.exit_code, c.code) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(test::read_file(image_), before);
  // An FS3 image (ConnectX-4): not supported.
  std::filesystem::copy_file(test::sample_image("connectx4-old"), dir_ / "cx4.bin");
  const auto r = test::run_tool("flint", {"-i", (dir_ / "cx4.bin").string(), "sign", "--private_key", key, "--key_uuid", kUuid});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("signing is for FS4 images only"), std::string::npos) << r.err;
}

// Real Spectrum-2 firmware carries the SHA-256 digest of its image in IMAGE_SIGNATURE_256: that it
// matches ours shows which bytes a signature covers (the range, the masked magic and entries).
TEST(Fs4SignRealImages, TheVendorsDigestMatchesTheBytesWeCover) {
  const auto sample = test::sample_image("spectrum2-old");
  if (!std::filesystem::exists(sample)) GTEST_SKIP() << "no real Spectrum-2 sample (../shared absent)";
  const auto r = test::run_tool("flint", {"-i", sample.string(), "v"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Image signature:       digest (SHA-256, matches) (IMAGE_SIGNATURE_256)"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace openflint
