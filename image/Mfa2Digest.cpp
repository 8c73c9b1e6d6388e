// Mfa2Package digests: mstflint's optional SHA-256 extensions over the descriptors and the stored component block.
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "image/Mfa2Format.h"
#include "image/Mfa2Package.h"

namespace openflint {
namespace {

struct Mfa2DigestCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

// SHA-256 of `head` followed by [offset, offset + size) of `source`, read a chunk at a time.
Result<std::vector<std::uint8_t>> mfa2_sha256(Bytes head, const ByteSource* source, std::uint64_t offset,
                                              std::uint64_t size) {
  std::unique_ptr<EVP_MD_CTX, Mfa2DigestCtxDeleter> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), head.data(), head.size()) != 1)
    return make_error(ErrorCode::Internal, "SHA-256: cannot start a digest");
  std::vector<std::uint8_t> chunk(source != nullptr ? std::min<std::uint64_t>(size, Mfa2Package::kChunkSize) : 0);
  for (std::uint64_t done = 0; source != nullptr && done < size;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), size - done));
    OF_TRY(source->read(offset + done, std::span(chunk).first(n)));
    if (EVP_DigestUpdate(ctx.get(), chunk.data(), n) != 1) return make_error(ErrorCode::Internal, "SHA-256 failed");
    done += n;
  }
  std::vector<std::uint8_t> digest(mfa2::kSha256Size);
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &length) != 1 || length != digest.size())
    return make_error(ErrorCode::Internal, "SHA-256 failed");
  return digest;
}

std::string mfa2_hex(Bytes bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (const std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

}  // namespace

Result<void> Mfa2Package::check_digests(Bytes descriptors) {
  if (!has_sha256()) return {};
  // The descriptors as the digests were computed over them: both digest fields zeroed.
  std::vector<std::uint8_t> zeroed(descriptors.begin(), descriptors.end());
  for (const std::uint64_t at : {sha256_at_, descriptors_sha256_at_})
    if (at != 0) std::memset(zeroed.data() + at, 0, mfa2::kSha256Size);
  struct Check {
    std::uint64_t at;
    const ByteSource* cb;
    const char* what;
  };
  for (const Check& check : {Check{descriptors_sha256_at_, nullptr, "descriptors SHA-256 (0x30)"},
                             Check{sha256_at_, source_.get(), "package SHA-256 (0x2F)"}}) {
    if (check.at == 0) continue;
    OF_ASSIGN(const std::vector<std::uint8_t> computed, mfa2_sha256(zeroed, check.cb, cb_offset_, cb_size_));
    const Bytes stored = descriptors.subspan(check.at, mfa2::kSha256Size);
    if (!std::equal(stored.begin(), stored.end(), computed.begin())) {
      sha256_mismatch_ = std::string(check.what) + " mismatch: stored " + mfa2_hex(stored) + ", computed " + mfa2_hex(computed);
      return {};
    }
  }
  return {};
}

}  // namespace openflint
