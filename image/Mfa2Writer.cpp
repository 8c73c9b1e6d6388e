// Mfa2Writer: the MFA2 layout the kernel's mlxfw parser and our reader take.
#include "image/Mfa2Writer.h"

#include <algorithm>
#include <set>

#include "core/ByteReader.h"
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

Result<void> check_inputs(const std::vector<Mfa2Input>& inputs) {
  if (inputs.empty()) return make_error(ErrorCode::InvalidArgument, "an MFA2 package needs at least one image");
  if (inputs.size() > 0x7fff) return make_error(ErrorCode::InvalidArgument, "too many images for one MFA2 package");
  std::set<std::string> seen;
  for (const auto& in : inputs) {
    if (in.psid.empty() || in.psid.size() > 255)
      return make_error(ErrorCode::InvalidArgument, "PSID '" + in.psid + "' is empty or longer than 255 bytes");
    if (!seen.insert(in.psid).second)
      return make_error(ErrorCode::InvalidArgument, "PSID " + in.psid + " is given twice");
    if (in.image.empty()) return make_error(ErrorCode::InvalidArgument, "the image for " + in.psid + " is empty");
    if (in.image.size() > 0xffffffffu)
      return make_error(ErrorCode::InvalidArgument, "the image for " + in.psid + " is larger than 4 GiB");
  }
  return {};
}

}  // namespace

Result<std::vector<std::uint8_t>> build_mfa2(const std::vector<Mfa2Input>& inputs, std::uint32_t xz_preset) {
  OF_TRY(check_inputs(inputs));
  // The unpacked component block and each component's offset in it.
  std::vector<std::uint8_t> cb;
  std::vector<std::uint64_t> offsets;
  for (const auto& in : inputs) {
    offsets.push_back(cb.size());
    cb.insert(cb.end(), mfa2::kComponentMagic, mfa2::kComponentMagic + mfa2::kComponentMagicSize);
    cb.insert(cb.end(), in.image.begin(), in.image.end());
  }
  OF_ASSIGN(const std::vector<std::uint8_t> packed, xz_compress(cb, xz_preset));

  std::vector<std::uint8_t> devices;
  std::vector<std::uint8_t> components;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::vector<std::uint8_t> children;
    put_tlv(children, mfa2::kTlvPsid, std::vector<std::uint8_t>(inputs[i].psid.begin(), inputs[i].psid.end()));
    std::vector<std::uint8_t> ptr(mfa2::kComponentPtrSize, 0);
    store_be16(ptr.data() + 2, static_cast<std::uint16_t>(i));
    put_tlv(children, mfa2::kTlvComponentPtr, ptr);
    put_multi(devices, 2, children);

    std::vector<std::uint8_t> desc(mfa2::kComponentDescriptorSize, 0);
    store_be16(desc.data() + 2, mfa2::kComponentFirmware);
    store_be32(desc.data() + 4, static_cast<std::uint32_t>(offsets[i] >> 32));
    store_be32(desc.data() + 8, static_cast<std::uint32_t>(offsets[i]));
    store_be32(desc.data() + 12, static_cast<std::uint32_t>(inputs[i].image.size()));
    std::vector<std::uint8_t> comp_children;
    put_tlv(comp_children, mfa2::kTlvComponentDescriptor, desc);
    put_multi(components, 1, comp_children);
  }

  // The package descriptor's own size is fixed, so the CB offset is known before it is written.
  const std::uint64_t digest_tlv_size = mfa2::kTlvHeaderSize + mfa2::kSha256Size;
  const std::uint64_t package_multi_size = 8 + mfa2::kTlvHeaderSize + mfa2::kPackageDescriptorSize + 2 * digest_tlv_size;
  const std::uint64_t cb_offset = mfa2::kFingerprintSize + package_multi_size + devices.size() + components.size();
  if (cb_offset + packed.size() > 0xffffffffu)
    return make_error(ErrorCode::InvalidArgument, "the package would be larger than 4 GiB");
  std::vector<std::uint8_t> pd(mfa2::kPackageDescriptorSize, 0);
  store_be16(pd.data(), static_cast<std::uint16_t>(inputs.size()));
  store_be16(pd.data() + 2, static_cast<std::uint16_t>(inputs.size()));
  store_be32(pd.data() + 4, static_cast<std::uint32_t>(cb_offset));
  store_be32(pd.data() + 8, static_cast<std::uint32_t>(packed.size()));
  store_be32(pd.data() + 12, static_cast<std::uint32_t>(cb.size() >> 32));
  store_be32(pd.data() + 16, static_cast<std::uint32_t>(cb.size()));
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
  // mstflint's digests (image/Mfa2Format.h): over the descriptors with both digests zeroed, the
  // second followed by the stored component block.
  OF_ASSIGN(const std::vector<std::uint8_t> descriptors_digest, digest_of(DigestAlgorithm::Sha256, out));
  out.insert(out.end(), packed.begin(), packed.end());
  OF_ASSIGN(const std::vector<std::uint8_t> package_digest, digest_of(DigestAlgorithm::Sha256, out));
  const std::size_t sha_at = mfa2::kFingerprintSize + 8 + mfa2::kTlvHeaderSize + mfa2::kPackageDescriptorSize +
                             mfa2::kTlvHeaderSize;
  std::copy(package_digest.begin(), package_digest.end(), out.begin() + static_cast<std::ptrdiff_t>(sha_at));
  std::copy(descriptors_digest.begin(), descriptors_digest.end(),
            out.begin() + static_cast<std::ptrdiff_t>(sha_at + digest_tlv_size));
  return out;
}

}  // namespace openflint
