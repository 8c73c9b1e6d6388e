// RsaKey: an RSA key read from PEM text, and the PKCS#1 v1.5 signatures FS4 image signing uses,
// all through OpenSSL's libcrypto (never our own crypto).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"

struct evp_pkey_st;

namespace openflint {

enum class DigestAlgorithm { Sha256, Sha512 };

// The digest of `data` (32 or 64 bytes).
[[nodiscard]] Result<std::vector<std::uint8_t>> digest_of(DigestAlgorithm algorithm, Bytes data);

class RsaKey {
 public:
  // A private key ("BEGIN PRIVATE KEY" or "BEGIN RSA PRIVATE KEY"); a key protected by a passphrase
  // is refused rather than prompted for. InvalidArgument naming `what` when it is not an RSA key.
  [[nodiscard]] static Result<RsaKey> from_private_pem(Bytes pem, const std::string& what);
  // A public key ("BEGIN PUBLIC KEY", "BEGIN RSA PUBLIC KEY"), or the public half of a private key.
  [[nodiscard]] static Result<RsaKey> from_public_pem(Bytes pem, const std::string& what);

  RsaKey(RsaKey&&) noexcept;
  RsaKey& operator=(RsaKey&&) noexcept;
  ~RsaKey();

  [[nodiscard]] int bits() const;
  [[nodiscard]] bool has_private() const { return private_; }
  // RSASSA-PKCS1-v1_5 over the digest of `message` (what OpenSSL's RSA_sign with that digest's NID
  // gives, and `openssl dgst -sha256 -sign` makes). Needs the private key.
  [[nodiscard]] Result<std::vector<std::uint8_t>> sign(DigestAlgorithm algorithm, Bytes message) const;
  // True when `signature` is this key's signature of `message`.
  [[nodiscard]] Result<bool> verify(DigestAlgorithm algorithm, Bytes message, Bytes signature) const;

 private:
  struct Free {
    void operator()(evp_pkey_st* key) const;
  };
  RsaKey(evp_pkey_st* key, bool is_private) : key_(key), private_(is_private) {}
  std::unique_ptr<evp_pkey_st, Free> key_;
  bool private_ = false;
};

}  // namespace openflint
