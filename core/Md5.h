// Md5: incremental MD5 digest, for checksums compared with mstflint's `checksum`. The digest is
// OpenSSL's (libcrypto's EVP interface); this type only gives it the project's error convention.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"

struct evp_md_ctx_st;

namespace openflint {

class Md5 {
 public:
  using Digest = std::array<std::uint8_t, 16>;

  Md5();
  Md5(Md5&&) noexcept;
  Md5& operator=(Md5&&) noexcept;
  ~Md5();

  void update(Bytes data);
  // The digest of everything fed so far; the object stays usable for further updates. NotSupported
  // when libcrypto offers no MD5 (a FIPS-only configuration), Internal when it fails.
  [[nodiscard]] Result<Digest> finish() const;

  // 32 lower-case hex digits, as md5sum and mstflint print.
  [[nodiscard]] static std::string to_hex(const Digest& digest);

 private:
  struct ContextFree {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, ContextFree> ctx_;
  bool failed_ = false;  // no MD5 from libcrypto, or an update failed: finish() says so
};

}  // namespace openflint
