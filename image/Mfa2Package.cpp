// Mfa2Package: parsing an MFA2 package — fingerprint, TLVs, descriptors, the component block's bounds.
#include "image/Mfa2Package.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/HexString.h"
#include "core/InputFile.h"
#include "core/MemorySource.h"
#include "image/Mfa2Format.h"
#include "image/XzStream.h"

namespace openflint {
namespace {

std::uint16_t mfa2_be16(const std::uint8_t* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }

// One TLV of the descriptor area: where it is and what it holds.
struct Mfa2Tlv {
  std::uint8_t type = 0;
  std::uint64_t at = 0;       // of its header, from the start of the file
  std::uint16_t length = 0;   // payload bytes
  std::uint64_t next = 0;     // where its next sibling starts
  Bytes payload;
};

// A bounds-checked walk over the descriptor area [0, end) of the file.
class TlvWalker {
 public:
  explicit TlvWalker(Bytes area) : area_(area) {}

  // The TLV at `at`: header and payload inside the area, a multi-part's children inside
  // the area and its declared size. Its next sibling is computed, not checked.
  Result<Mfa2Tlv> tlv_at(std::uint64_t at) const {
    const ByteReader reader(area_);
    if (at % 4 != 0 || !reader.contains(at, mfa2::kTlvHeaderSize))
      return make_error(ErrorCode::InvalidImage, "TLV at " + hex_string(at) + " is outside the descriptors (" +
                                                     std::to_string(area_.size()) + " bytes)");
    Mfa2Tlv tlv;
    tlv.at = at;
    OF_ASSIGN(tlv.type, reader.u8(at + 1));
    OF_ASSIGN(tlv.length, reader.be16(at + 2));
    OF_ASSIGN_CTX(tlv.payload, reader.slice(at + mfa2::kTlvHeaderSize, tlv.length),
                  "TLV type " + hex_string(tlv.type) + " at " + hex_string(at) + ": its " +
                      std::to_string(tlv.length) + "-byte payload runs past the descriptors");
    tlv.next = at + mfa2::align4(mfa2::kTlvHeaderSize + tlv.length);
    if (tlv.type == mfa2::kTlvMultiPart) {
      if (tlv.length != mfa2::kMultiPayloadSize)
        return make_error(ErrorCode::InvalidImage, "multi-part TLV at " + hex_string(at) + ": length " +
                                                       std::to_string(tlv.length) + ", not 4");
      const std::uint16_t total = mfa2_be16(tlv.payload.data() + 2);
      if (!reader.contains(tlv.next, total))
        return make_error(ErrorCode::InvalidImage, "multi-part TLV at " + hex_string(at) + ": its " +
                                                       std::to_string(total) + " bytes of children run past the descriptors");
      tlv.next = at + mfa2::align4(mfa2::align4(mfa2::kTlvHeaderSize + tlv.length) + total);
    }
    return tlv;
  }

  // The children of the multi-part `multi`: num_extensions + 1 TLVs, all inside it.
  Result<std::vector<Mfa2Tlv>> children(const Mfa2Tlv& multi) const {
    const std::uint16_t count = mfa2_be16(multi.payload.data());
    const std::uint64_t first = multi.at + mfa2::align4(mfa2::kTlvHeaderSize + multi.length);
    std::vector<Mfa2Tlv> out;
    std::uint64_t at = first;
    for (std::uint32_t i = 0; i <= count; ++i) {
      OF_ASSIGN_CTX(Mfa2Tlv child, tlv_at(at), "child " + std::to_string(i) + " of the multi-part at " + hex_string(multi.at));
      if (child.next > multi.next)
        return make_error(ErrorCode::InvalidImage, "child " + std::to_string(i) + " of the multi-part at " +
                                                       hex_string(multi.at) + " ends past the multi-part's end " +
                                                       hex_string(multi.next));
      at = child.next;
      out.push_back(child);
    }
    return out;
  }

 private:
  Bytes area_;
};

// The fixed-size payload of a TLV that must be of `type`.
Result<Bytes> payload_of(const Mfa2Tlv& tlv, std::uint8_t type, std::uint16_t size, const char* what) {
  if (tlv.type != type)
    return make_error(ErrorCode::InvalidImage, "TLV at " + hex_string(tlv.at) + " is type " + hex_string(tlv.type) +
                                                   ", not a " + what + " (" + hex_string(type) + ")");
  if (tlv.length != size)
    return make_error(ErrorCode::InvalidImage, std::string(what) + " at " + hex_string(tlv.at) + ": length " +
                                                   std::to_string(tlv.length) + ", not " + std::to_string(size));
  return tlv.payload;
}

Result<Mfa2Device> parse_device(const TlvWalker& walker, const Mfa2Tlv& multi, std::uint16_t num_components) {
  OF_ASSIGN(const std::vector<Mfa2Tlv> children, walker.children(multi));
  Mfa2Device device;
  bool has_psid = false;
  for (const Mfa2Tlv& child : children) {
    if (child.type == mfa2::kTlvPsid && !has_psid) {
      if (child.length == 0)
        return make_error(ErrorCode::InvalidImage, "empty PSID TLV at " + hex_string(child.at));
      device.psid.assign(reinterpret_cast<const char*>(child.payload.data()), child.payload.size());
      has_psid = true;
    } else if (child.type == mfa2::kTlvComponentPtr) {
      OF_ASSIGN(const Bytes p, payload_of(child, mfa2::kTlvComponentPtr, mfa2::kComponentPtrSize, "component pointer"));
      const std::uint16_t index = mfa2_be16(p.data() + 2);
      if (index >= num_components)
        return make_error(ErrorCode::InvalidImage, "component pointer at " + hex_string(child.at) + " names component " +
                                                       std::to_string(index) + " of " + std::to_string(num_components));
      device.components.push_back(index);
    }
  }
  if (!has_psid) return make_error(ErrorCode::InvalidImage, "device descriptor has no PSID");
  if (device.components.empty())
    return make_error(ErrorCode::InvalidImage, "device " + device.psid + " has no component pointer");
  return device;
}

Result<Mfa2Component> parse_component(const TlvWalker& walker, const Mfa2Tlv& multi) {
  OF_ASSIGN(const std::vector<Mfa2Tlv> children, walker.children(multi));
  OF_ASSIGN(const Bytes p, payload_of(children.front(), mfa2::kTlvComponentDescriptor, mfa2::kComponentDescriptorSize,
                                      "component descriptor"));
  return Mfa2Component{.identifier = mfa2_be16(p.data() + 2),
                       .pldm_classification = mfa2_be16(p.data()),
                       .cb_offset = (std::uint64_t{ByteReader::load_be32(p.data() + 4)} << 32) |
                                    ByteReader::load_be32(p.data() + 8),
                       .size = ByteReader::load_be32(p.data() + 12)};
}

// The package descriptor in the file's first bytes, before the descriptors' extent is known:
// the TLV at 0x10 must be a multi-part and its first child (at 0x18) the package descriptor.
// open() checks both again, in full, on the whole descriptor area.
Result<Bytes> package_descriptor(Bytes head) {
  constexpr std::uint64_t kMultiAt = mfa2::kFingerprintSize;
  if (head.size() <= kMultiAt + 1 || head[kMultiAt + 1] != mfa2::kTlvMultiPart)
    return make_error(ErrorCode::InvalidImage, "the first TLV (at 0x10) is missing or not a multi-part");
  const TlvWalker walker(head);
  OF_ASSIGN_CTX(const Mfa2Tlv child, walker.tlv_at(kMultiAt + mfa2::kTlvHeaderSize + mfa2::kMultiPayloadSize),
                "package descriptor");
  return payload_of(child, mfa2::kTlvPackageDescriptor, mfa2::kPackageDescriptorSize, "package descriptor");
}

}  // namespace

bool Mfa2Package::has_fingerprint(Bytes head) {
  return head.size() >= mfa2::kFingerprintSize && std::memcmp(head.data(), mfa2::kFingerprint, mfa2::kFingerprintSize) == 0;
}

Result<Mfa2Package> Mfa2Package::open(const std::string& path) {
  OF_ASSIGN(InputFile file, InputFile::open(path, kMaxPackageSize, "MFA2 package"));
  OF_ASSIGN_CTX(Mfa2Package package, from_source(std::make_shared<const InputFile>(std::move(file))), path);
  return package;
}

Result<Mfa2Package> Mfa2Package::from_bytes(std::vector<std::uint8_t> package) {
  return from_source(std::make_shared<const MemorySource>(std::move(package)));
}

Result<Mfa2Package> Mfa2Package::from_source(std::shared_ptr<const ByteSource> source) {
  if (source == nullptr) return make_error(ErrorCode::InvalidArgument, "no package source");
  Mfa2Package out;
  out.source_ = std::move(source);
  OF_TRY(out.parse());
  return out;
}

Result<void> Mfa2Package::parse() {
  const ByteSource& file = *source_;
  if (file.size() > kMaxPackageSize)
    return make_error(ErrorCode::InvalidImage, "MFA2 package of " + std::to_string(file.size()) +
                                                   " bytes, more than the " + std::to_string(kMaxPackageSize) + "-byte limit");
  // The package descriptor comes first and says where the CB starts: the descriptors are
  // what lies before it, and only they are read (at most kMaxDescriptorSize bytes).
  constexpr std::uint64_t kHeadSize = mfa2::kFingerprintSize + 8 + mfa2::kTlvHeaderSize + mfa2::kPackageDescriptorSize;
  OF_ASSIGN(const std::vector<std::uint8_t> head, file.read_range(0, std::min<std::uint64_t>(file.size(), kHeadSize)));
  if (!has_fingerprint(head))
    return make_error(ErrorCode::InvalidImage, "no MFA2 fingerprint (MLNX.MFA2.XZ.00!) at 0x0: not an MFA2 package");
  OF_ASSIGN(Bytes pd, package_descriptor(head));
  const std::uint64_t cb_at = mfa2::align4(ByteReader::load_be32(pd.data() + 4));
  if (cb_at > file.size() || cb_at > kMaxDescriptorSize)
    return make_error(ErrorCode::InvalidImage, "the component block offset " + hex_string(cb_at) +
                                                   " is past the end of the file (" + std::to_string(file.size()) +
                                                   " bytes) or more than the " + std::to_string(kMaxDescriptorSize) +
                                                   "-byte descriptor limit");
  OF_ASSIGN(const std::vector<std::uint8_t> area, file.read_range(0, cb_at));
  TlvWalker walker(area);
  OF_ASSIGN(const Mfa2Tlv first, walker.tlv_at(mfa2::kFingerprintSize));
  OF_ASSIGN_CTX(const std::vector<Mfa2Tlv> package_children, walker.children(first), "package descriptor");
  OF_ASSIGN(pd, payload_of(package_children.front(), mfa2::kTlvPackageDescriptor, mfa2::kPackageDescriptorSize,
                           "package descriptor"));
  for (const Mfa2Tlv& extension : package_children) {
    if (extension.type != mfa2::kTlvSha256 && extension.type != mfa2::kTlvDescriptorsSha256) continue;
    OF_ASSIGN(const Bytes digest, payload_of(extension, extension.type, mfa2::kSha256Size, "SHA-256 extension"));
    (extension.type == mfa2::kTlvSha256 ? sha256_at_ : descriptors_sha256_at_) =
        static_cast<std::uint64_t>(digest.data() - area.data());
  }
  const std::uint16_t num_components = mfa2_be16(pd.data());
  const std::uint16_t num_devices = mfa2_be16(pd.data() + 2);
  cb_size_ = ByteReader::load_be32(pd.data() + 8);
  const std::uint64_t cb_declared = (std::uint64_t{ByteReader::load_be32(pd.data() + 12)} << 32) |
                                    ByteReader::load_be32(pd.data() + 16);
  const std::uint8_t compression = pd[23];
  if (compression != mfa2::kCompressionNone && compression != mfa2::kCompressionXz)
    return make_error(ErrorCode::NotSupported, "component block compression " + std::to_string(compression) +
                                                   " (known: 0 none, 1 xz)");
  cb_xz_ = compression == mfa2::kCompressionXz;
  if (num_devices == 0 || num_components == 0)
    return make_error(ErrorCode::InvalidImage, "package descriptor: " + std::to_string(num_devices) + " devices, " +
                                                   std::to_string(num_components) + " components");
  std::uint64_t at = first.next;
  for (std::uint16_t i = 0; i < num_devices; ++i) {
    OF_ASSIGN_CTX(const Mfa2Tlv multi, walker.tlv_at(at), "device descriptor " + std::to_string(i));
    if (multi.type != mfa2::kTlvMultiPart)
      return make_error(ErrorCode::InvalidImage, "device descriptor " + std::to_string(i) + " at " + hex_string(at) +
                                                     " is not a multi-part TLV");
    OF_ASSIGN_CTX(Mfa2Device device, parse_device(walker, multi, num_components), "device descriptor " + std::to_string(i));
    devices_.push_back(std::move(device));
    at = multi.next;
  }
  for (std::uint16_t i = 0; i < num_components; ++i) {
    OF_ASSIGN_CTX(const Mfa2Tlv multi, walker.tlv_at(at), "component descriptor " + std::to_string(i));
    if (multi.type != mfa2::kTlvMultiPart)
      return make_error(ErrorCode::InvalidImage, "component descriptor " + std::to_string(i) + " at " +
                                                     hex_string(at) + " is not a multi-part TLV");
    OF_ASSIGN_CTX(Mfa2Component component, parse_component(walker, multi), "component descriptor " + std::to_string(i));
    components_.push_back(component);
    at = multi.next;
  }
  if (cb_at < at || cb_size_ == 0 || cb_size_ > file.size() - cb_at)
    return make_error(ErrorCode::InvalidImage, "component block at " + hex_string(cb_at) + " + " +
                                                   std::to_string(cb_size_) + " bytes is not between the descriptors' end " +
                                                   hex_string(at) + " and the file's end " + hex_string(file.size()));
  cb_offset_ = cb_at;
  cb_unpacked_size_ = cb_size_;
  if (cb_xz_) {
    OF_ASSIGN_CTX(cb_unpacked_size_, xz_uncompressed_size(file, cb_offset_, cb_size_),
                  "component block at " + hex_string(cb_offset_));
  }
  if (cb_declared != cb_unpacked_size_)
    return make_error(ErrorCode::InvalidImage, "component block unpacks to " + std::to_string(cb_unpacked_size_) +
                                                   " bytes, its descriptor says " + std::to_string(cb_declared));
  if (cb_unpacked_size_ > kMaxCbUnpackedSize)
    return make_error(ErrorCode::InvalidImage, "component block unpacks to " + std::to_string(cb_unpacked_size_) +
                                                   " bytes, more than the " + std::to_string(kMaxCbUnpackedSize) +
                                                   "-byte limit");
  OF_TRY(check_cb());
  return check_digests(area);
}

// Components inside the unpacked CB, disjoint, and owning all of it but a little slack each,
// so no extraction decodes bytes nobody owns (the MFA v1 reader's bomb bound).
Result<void> Mfa2Package::check_cb() const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::size_t i = 0; i < components_.size(); ++i) {
    const Mfa2Component& c = components_[i];
    const std::uint64_t length = mfa2::kComponentMagicSize + c.size;
    if (c.cb_offset > cb_unpacked_size_ || length > cb_unpacked_size_ - c.cb_offset)
      return make_error(ErrorCode::InvalidImage, "component " + std::to_string(i) + " at CB offset " +
                                                     hex_string(c.cb_offset) + " + " + std::to_string(length) +
                                                     " bytes is past the end of the component block (" +
                                                     std::to_string(cb_unpacked_size_) + " bytes unpacked)");
    ranges.emplace_back(c.cb_offset, c.cb_offset + length);
  }
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t owned = 0;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (i > 0 && ranges[i].first < ranges[i - 1].second)
      return make_error(ErrorCode::InvalidImage, "components overlap in the component block at " + hex_string(ranges[i].first));
    owned += ranges[i].second - ranges[i].first;
  }
  if (cb_unpacked_size_ > owned + kMaxUnownedCbPerComponent * ranges.size())
    return make_error(ErrorCode::InvalidImage, "component block unpacks to " + std::to_string(cb_unpacked_size_) +
                                                   " bytes, but its components hold only " + std::to_string(owned));
  return {};
}

Result<const Mfa2Device*> Mfa2Package::find_device(std::string_view psid) const {
  for (const auto& device : devices_)
    if (device.psid == psid) return &device;
  return make_error(ErrorCode::NotFound, "no device with PSID " + std::string(psid) + " in the MFA2 package");
}

Result<const Mfa2Component*> Mfa2Package::firmware(const Mfa2Device& device, std::uint64_t max_size) const {
  const Mfa2Component* found = nullptr;
  for (const std::uint16_t index : device.components) {
    const Mfa2Component& c = components_.at(index);
    if (device.components.size() == 1 || c.identifier == mfa2::kComponentFirmware) {
      found = &c;
      break;
    }
  }
  if (found == nullptr)
    return make_error(ErrorCode::NotFound, "device " + device.psid + " has no firmware component (identifier 1)");
  if (found->size > max_size)
    return make_error(ErrorCode::InvalidImage, "device " + device.psid + "'s firmware component is " +
                                                   std::to_string(found->size) + " bytes, larger than any flash (" +
                                                   std::to_string(max_size) + " bytes)");
  return found;
}

}  // namespace openflint
