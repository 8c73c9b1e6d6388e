// Mfa2Writer: the MFA2 layout the kernel's mlxfw parser and our reader take, built whole or streamed to a file.
#include "image/Mfa2Writer.h"

#include <openssl/evp.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <set>

#include "image/Mfa2Format.h"
#include "image/RsaKey.h"
#include "image/XzStream.h"

namespace openflint {
namespace {

// Appends a TLV header and payload, padded to 4 bytes.
void put_tlv(std::vector<std::uint8_t>& out, std::uint8_t type, const std::vector<std::uint8_t>& payload) {
  const std::size_t at = out.size();
  out.resize(at + mfa2::kTlvHeaderSize);
  out[at] = 0;  // version
  out[at + 1] = type;
  store_be16(out.data() + at + 2, static_cast<std::uint16_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  out.resize(mfa2::align4(out.size()), 0);
}

// A multi-part TLV around already serialised `children` (count of them).
void put_multi(std::vector<std::uint8_t>& out, std::size_t count, const std::vector<std::uint8_t>& children) {
  std::vector<std::uint8_t> payload(mfa2::kMultiPayloadSize);
  store_be16(payload.data(), static_cast<std::uint16_t>(count - 1));
  store_be16(payload.data() + 2, static_cast<std::uint16_t>(children.size()));
  put_tlv(out, mfa2::kTlvMultiPart, payload);
  out.insert(out.end(), children.begin(), children.end());
}

Result<void> check_entries(const std::vector<Mfa2Entry>& entries) {
  if (entries.empty()) return make_error(ErrorCode::InvalidArgument, "an MFA2 package needs at least one image");
  if (entries.size() > 0x7fff) return make_error(ErrorCode::InvalidArgument, "too many images for one MFA2 package");
  std::set<std::string> seen;
  for (const auto& in : entries) {
    if (in.psid.empty() || in.psid.size() > 255)
      return make_error(ErrorCode::InvalidArgument, "PSID '" + in.psid + "' is empty or longer than 255 bytes");
    if (!seen.insert(in.psid).second)
      return make_error(ErrorCode::InvalidArgument, "PSID " + in.psid + " is given twice");
    if (in.size == 0) return make_error(ErrorCode::InvalidArgument, "the image for " + in.psid + " is empty");
    if (in.size > 0xffffffffu)
      return make_error(ErrorCode::InvalidArgument, "the image for " + in.psid + " is larger than 4 GiB");
  }
  return {};
}

// Where the 0x2F digest lies in the file (the 0x30 digest follows its TLV).
constexpr std::size_t kSha256At =
    mfa2::kFingerprintSize + 8 + mfa2::kTlvHeaderSize + mfa2::kPackageDescriptorSize + mfa2::kTlvHeaderSize;
constexpr std::uint64_t kDigestTlvSize = mfa2::kTlvHeaderSize + mfa2::kSha256Size;

// Fingerprint and descriptors, both digests zero, for a CB of `cb_size` unpacked and
// `packed_size` stored bytes; components lie in the CB in entry order.
Result<std::vector<std::uint8_t>> mfa2_descriptors(const std::vector<Mfa2Entry>& entries, std::uint64_t packed_size) {
  std::vector<std::uint8_t> devices;
  std::vector<std::uint8_t> components;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::vector<std::uint8_t> children;
    put_tlv(children, mfa2::kTlvPsid, std::vector<std::uint8_t>(entries[i].psid.begin(), entries[i].psid.end()));
    std::vector<std::uint8_t> ptr(mfa2::kComponentPtrSize, 0);
    store_be16(ptr.data() + 2, static_cast<std::uint16_t>(i));
    put_tlv(children, mfa2::kTlvComponentPtr, ptr);
    put_multi(devices, 2, children);

    std::vector<std::uint8_t> desc(mfa2::kComponentDescriptorSize, 0);
    store_be16(desc.data() + 2, mfa2::kComponentFirmware);
    store_be32(desc.data() + 4, static_cast<std::uint32_t>(offset >> 32));
    store_be32(desc.data() + 8, static_cast<std::uint32_t>(offset));
    store_be32(desc.data() + 12, static_cast<std::uint32_t>(entries[i].size));
    std::vector<std::uint8_t> comp_children;
    put_tlv(comp_children, mfa2::kTlvComponentDescriptor, desc);
    put_multi(components, 1, comp_children);
    offset += mfa2::kComponentMagicSize + entries[i].size;
  }
  const std::uint64_t cb_size = offset;
  // The package descriptor's own size is fixed, so the CB offset is known before it is written.
  const std::uint64_t package_multi_size = 8 + mfa2::kTlvHeaderSize + mfa2::kPackageDescriptorSize + 2 * kDigestTlvSize;
  const std::uint64_t cb_offset = mfa2::kFingerprintSize + package_multi_size + devices.size() + components.size();
  if (cb_offset + packed_size > 0xffffffffu)
    return make_error(ErrorCode::InvalidArgument, "the package would be larger than 4 GiB");
  std::vector<std::uint8_t> pd(mfa2::kPackageDescriptorSize, 0);
  store_be16(pd.data(), static_cast<std::uint16_t>(entries.size()));
  store_be16(pd.data() + 2, static_cast<std::uint16_t>(entries.size()));
  store_be32(pd.data() + 4, static_cast<std::uint32_t>(cb_offset));
  store_be32(pd.data() + 8, static_cast<std::uint32_t>(packed_size));
  store_be32(pd.data() + 12, static_cast<std::uint32_t>(cb_size >> 32));
  store_be32(pd.data() + 16, static_cast<std::uint32_t>(cb_size));
  pd[23] = mfa2::kCompressionXz;
  std::vector<std::uint8_t> pd_tlv;
  put_tlv(pd_tlv, mfa2::kTlvPackageDescriptor, pd);
  const std::vector<std::uint8_t> zero_digest(mfa2::kSha256Size, 0);
  put_tlv(pd_tlv, mfa2::kTlvSha256, zero_digest);
  put_tlv(pd_tlv, mfa2::kTlvDescriptorsSha256, zero_digest);

  std::vector<std::uint8_t> out(mfa2::kFingerprint, mfa2::kFingerprint + mfa2::kFingerprintSize);
  put_multi(out, 3, pd_tlv);
  out.insert(out.end(), devices.begin(), devices.end());
  out.insert(out.end(), components.begin(), components.end());
  return out;
}

struct Mfa2WriterCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

// mstflint's digests (image/Mfa2Format.h): over the descriptors with both digests zeroed, the
// second followed by the stored component block, which `read_cb(offset, out)` reads back.
Result<void> put_digests(std::vector<std::uint8_t>& descriptors, std::uint64_t packed_size,
                         const std::function<Result<void>(std::uint64_t, std::span<std::uint8_t>)>& read_cb) {
  OF_ASSIGN(const std::vector<std::uint8_t> descriptors_digest, digest_of(DigestAlgorithm::Sha256, descriptors));
  std::unique_ptr<EVP_MD_CTX, Mfa2WriterCtxDeleter> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), descriptors.data(), descriptors.size()) != 1)
    return make_error(ErrorCode::Internal, "SHA-256: cannot start a digest");
  std::vector<std::uint8_t> chunk(static_cast<std::size_t>(std::min<std::uint64_t>(packed_size, std::uint64_t{1} << 20)));
  for (std::uint64_t done = 0; done < packed_size;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), packed_size - done));
    OF_TRY(read_cb(done, std::span(chunk).first(n)));
    if (EVP_DigestUpdate(ctx.get(), chunk.data(), n) != 1) return make_error(ErrorCode::Internal, "SHA-256 failed");
    done += n;
  }
  std::vector<std::uint8_t> package_digest(mfa2::kSha256Size);
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), package_digest.data(), &length) != 1 || length != package_digest.size())
    return make_error(ErrorCode::Internal, "SHA-256 failed");
  std::copy(package_digest.begin(), package_digest.end(), descriptors.begin() + static_cast<std::ptrdiff_t>(kSha256At));
  std::copy(descriptors_digest.begin(), descriptors_digest.end(),
            descriptors.begin() + static_cast<std::ptrdiff_t>(kSha256At + kDigestTlvSize));
  return {};
}

}  // namespace

Result<std::vector<std::uint8_t>> build_mfa2(const std::vector<Mfa2Input>& inputs, std::uint32_t xz_preset) {
  std::vector<Mfa2Entry> entries;
  for (const auto& in : inputs) entries.push_back({.psid = in.psid, .size = in.image.size()});
  OF_TRY(check_entries(entries));
  std::vector<std::uint8_t> cb;
  for (const auto& in : inputs) {
    cb.insert(cb.end(), mfa2::kComponentMagic, mfa2::kComponentMagic + mfa2::kComponentMagicSize);
    cb.insert(cb.end(), in.image.begin(), in.image.end());
  }
  OF_ASSIGN(const std::vector<std::uint8_t> packed, xz_compress(cb, xz_preset));
  OF_ASSIGN(std::vector<std::uint8_t> out, mfa2_descriptors(entries, packed.size()));
  OF_TRY(put_digests(out, packed.size(), [&packed](std::uint64_t at, std::span<std::uint8_t> to) -> Result<void> {
    std::copy_n(packed.begin() + static_cast<std::ptrdiff_t>(at), to.size(), to.begin());
    return {};
  }));
  out.insert(out.end(), packed.begin(), packed.end());
  return out;
}

Result<Mfa2StreamWriter> Mfa2StreamWriter::start(OutputFile& out, std::vector<Mfa2Entry> entries, std::uint32_t xz_preset) {
  if (out.writes_through())
    return make_error(ErrorCode::InvalidArgument, out.path() + ": an MFA2 package is written to a regular file");
  OF_TRY(check_entries(entries));
  OF_ASSIGN(const std::vector<std::uint8_t> descriptors, mfa2_descriptors(entries, 0));
  OF_TRY(out.write(descriptors));
  std::uint64_t cb_size = 0;
  for (const auto& e : entries) cb_size += mfa2::kComponentMagicSize + e.size;
  OutputFile* file = &out;
  OF_ASSIGN(XzWriter xz, XzWriter::create([file](Bytes chunk) { return file->write(chunk); }, xz_preset, cb_size));
  Mfa2StreamWriter writer(out, std::move(entries), descriptors.size(), std::move(xz));
  writer.left_ = writer.entries_.front().size;
  return writer;
}

Result<void> Mfa2StreamWriter::write(Bytes bytes) {
  while (!bytes.empty()) {
    if (current_ >= entries_.size())
      return make_error(ErrorCode::InvalidArgument, "more image bytes than the package's entries announce");
    if (!magic_written_) {
      OF_TRY(xz_->write(Bytes(reinterpret_cast<const std::uint8_t*>(mfa2::kComponentMagic), mfa2::kComponentMagicSize)));
      cb_written_ += mfa2::kComponentMagicSize;
      magic_written_ = true;
    }
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left_, bytes.size()));
    OF_TRY(xz_->write(bytes.first(n)));
    cb_written_ += n;
    bytes = bytes.subspan(n);
    left_ -= n;
    if (left_ == 0) {
      ++current_;
      magic_written_ = false;
      if (current_ < entries_.size()) left_ = entries_[current_].size;
    }
  }
  return {};
}

Result<std::uint64_t> Mfa2StreamWriter::finish() {
  if (current_ < entries_.size())
    return make_error(ErrorCode::InvalidArgument, "the image for " + entries_[current_].psid + " is shorter than announced");
  OF_TRY(xz_->finish());
  const std::uint64_t packed = xz_->total_out();
  OF_ASSIGN(std::vector<std::uint8_t> descriptors, mfa2_descriptors(entries_, packed));
  if (descriptors.size() != cb_offset_) return make_error(ErrorCode::Internal, "MFA2 descriptors changed size");
  OutputFile* file = out_;
  const std::uint64_t cb_at = cb_offset_;
  OF_TRY(put_digests(descriptors, packed, [file, cb_at](std::uint64_t at, std::span<std::uint8_t> to) {
    return file->read_at(cb_at + at, to);
  }));
  OF_TRY(out_->write_at(0, descriptors));
  return cb_offset_ + packed;
}

}  // namespace openflint
