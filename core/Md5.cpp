// Md5: OpenSSL's EVP digest interface, with its failures as Results.
#include "core/Md5.h"

#include <openssl/evp.h>

#include "core/HexString.h"

namespace openflint {

void Md5::ContextFree::operator()(evp_md_ctx_st* ctx) const { EVP_MD_CTX_free(ctx); }

Md5::Md5() : ctx_(EVP_MD_CTX_new()) {
  failed_ = !ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_md5(), nullptr) != 1;
}

Md5::Md5(Md5&&) noexcept = default;
Md5& Md5::operator=(Md5&&) noexcept = default;
Md5::~Md5() = default;

void Md5::update(Bytes data) {
  if (failed_ || data.empty()) return;
  failed_ = EVP_DigestUpdate(ctx_.get(), data.data(), data.size()) != 1;
}

Result<Md5::Digest> Md5::finish() const {
  if (failed_) return make_error(ErrorCode::NotSupported, "MD5 is not available from OpenSSL's libcrypto (a FIPS-only configuration?)");
  // Finalizing a copy leaves this digest open for further updates.
  const std::unique_ptr<evp_md_ctx_st, ContextFree> copy(EVP_MD_CTX_new());
  Digest digest{};
  unsigned int size = 0;
  if (!copy || EVP_MD_CTX_copy_ex(copy.get(), ctx_.get()) != 1 || EVP_DigestFinal_ex(copy.get(), digest.data(), &size) != 1 ||
      size != digest.size())
    return make_error(ErrorCode::Internal, "OpenSSL's MD5 failed");
  return digest;
}

std::string Md5::to_hex(const Digest& digest) { return hex_digits(digest); }

}  // namespace openflint
