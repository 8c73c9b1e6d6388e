// RsaKey: PEM keys and PKCS#1 v1.5 signatures through OpenSSL's EVP interface.
#include "image/RsaKey.h"

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/evp.h>

namespace openflint {
namespace {

const EVP_MD* md_of(DigestAlgorithm algorithm) {
  return algorithm == DigestAlgorithm::Sha256 ? EVP_sha256() : EVP_sha512();
}

// No passphrase prompt on the terminal: an encrypted key fails to load.
int no_passphrase(char*, int, int, void*) { return 0; }

struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

// The key in PEM text, any of its forms (PKCS#8, PKCS#1, SubjectPublicKeyInfo); null when none is.
EVP_PKEY* decode_pem(Bytes pem, int selection) {
  EVP_PKEY* key = nullptr;
  OSSL_DECODER_CTX* ctx = OSSL_DECODER_CTX_new_for_pkey(&key, "PEM", nullptr, "RSA", selection, nullptr, nullptr);
  if (ctx == nullptr) return nullptr;
  OSSL_DECODER_CTX_set_pem_password_cb(ctx, no_passphrase, nullptr);
  const unsigned char* data = pem.data();
  std::size_t size = pem.size();
  if (OSSL_DECODER_from_data(ctx, &data, &size) != 1) {
    EVP_PKEY_free(key);
    key = nullptr;
  }
  OSSL_DECODER_CTX_free(ctx);
  return key;
}

Result<void> check_rsa(EVP_PKEY* key, const std::string& what, const char* kind) {
  if (key == nullptr)
    return make_error(ErrorCode::InvalidArgument,
                      what + ": not a PEM " + kind + " (or protected by a passphrase, which is not supported)");
  if (EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA)
    return make_error(ErrorCode::InvalidArgument, what + ": not an RSA key");
  return {};
}

}  // namespace

void RsaKey::Free::operator()(evp_pkey_st* key) const { EVP_PKEY_free(key); }

RsaKey::RsaKey(RsaKey&&) noexcept = default;
RsaKey& RsaKey::operator=(RsaKey&&) noexcept = default;
RsaKey::~RsaKey() = default;

Result<std::vector<std::uint8_t>> digest_of(DigestAlgorithm algorithm, Bytes data) {
  std::vector<std::uint8_t> out(EVP_MAX_MD_SIZE);
  unsigned size = 0;
  if (EVP_Digest(data.data(), data.size(), out.data(), &size, md_of(algorithm), nullptr) != 1)
    return make_error(ErrorCode::Internal, "digest: libcrypto failed");
  out.resize(size);
  return out;
}

Result<RsaKey> RsaKey::from_private_pem(Bytes pem, const std::string& what) {
  EVP_PKEY* key = decode_pem(pem, OSSL_KEYMGMT_SELECT_KEYPAIR);
  RsaKey out(key, true);
  OF_TRY(check_rsa(key, what, "RSA private key"));
  return out;
}

Result<RsaKey> RsaKey::from_public_pem(Bytes pem, const std::string& what) {
  EVP_PKEY* key = decode_pem(pem, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
  if (key == nullptr) key = decode_pem(pem, OSSL_KEYMGMT_SELECT_KEYPAIR);  // a private key's public half
  RsaKey out(key, false);
  OF_TRY(check_rsa(key, what, "RSA public key"));
  return out;
}

int RsaKey::bits() const { return EVP_PKEY_get_bits(key_.get()); }

Result<std::vector<std::uint8_t>> RsaKey::sign(DigestAlgorithm algorithm, Bytes message) const {
  if (!private_) return make_error(ErrorCode::InvalidArgument, "signing needs a private key");
  MdCtx ctx(EVP_MD_CTX_new());
  std::size_t size = 0;
  // EVP_PKEY's RSA default padding is PKCS#1 v1.5.
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, md_of(algorithm), nullptr, key_.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &size, message.data(), message.size()) != 1)
    return make_error(ErrorCode::Internal, "RSA signing: libcrypto failed");
  std::vector<std::uint8_t> out(size);
  if (EVP_DigestSign(ctx.get(), out.data(), &size, message.data(), message.size()) != 1)
    return make_error(ErrorCode::Internal, "RSA signing: libcrypto failed");
  out.resize(size);
  return out;
}

Result<bool> RsaKey::verify(DigestAlgorithm algorithm, Bytes message, Bytes signature) const {
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, md_of(algorithm), nullptr, key_.get()) != 1)
    return make_error(ErrorCode::Internal, "RSA verification: libcrypto failed");
  return EVP_DigestVerify(ctx.get(), signature.data(), signature.size(), message.data(), message.size()) == 1;
}

}  // namespace openflint
