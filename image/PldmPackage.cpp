// PldmPackage: parsing a DSP0267 package header — identifier, records, descriptors, components, checksums.
#include "image/PldmPackage.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "core/HexString.h"
#include "core/InputFile.h"
#include "core/MemorySource.h"
#include "image/Crc32.h"
#include "image/PldmFormat.h"

namespace openflint {
namespace {

// A bounds-checked little-endian cursor over the package header (everything before its checksums).
class PldmCursor {
 public:
  explicit PldmCursor(Bytes header) : bytes_(header) {}
  [[nodiscard]] std::uint64_t at() const { return at_; }
  [[nodiscard]] std::uint64_t end() const { return bytes_.size(); }

  Result<Bytes> take(std::uint64_t n, const char* what) {
    if (n > bytes_.size() - at_)
      return make_error(ErrorCode::InvalidImage, std::string(what) + " at " + hex_string(at_) + ": " + std::to_string(n) +
                                                     " bytes run past the end of the package header (" +
                                                     hex_string(bytes_.size()) + ")");
    const Bytes out = bytes_.subspan(at_, n);
    at_ += n;
    return out;
  }
  Result<std::uint8_t> u8(const char* what) {
    OF_ASSIGN(const Bytes b, take(1, what));
    return b[0];
  }
  Result<std::uint16_t> le16(const char* what) {
    OF_ASSIGN(const Bytes b, take(2, what));
    return static_cast<std::uint16_t>(b[0] | (b[1] << 8));
  }
  Result<std::uint32_t> le32(const char* what) {
    OF_ASSIGN(const Bytes b, take(4, what));
    return std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
  }
  Result<std::string> text(std::uint64_t n, const char* what) {
    OF_ASSIGN(const Bytes b, take(n, what));
    return std::string(b.begin(), b.end());
  }

 private:
  Bytes bytes_;
  std::uint64_t at_ = 0;
};

std::uint32_t pldm_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}

const pldm::HeaderVersion* pldm_header_version(Bytes head) {
  if (head.size() < 16) return nullptr;
  for (const auto& v : pldm::kHeaderVersions)
    if (std::equal(v.identifier.begin(), v.identifier.end(), head.begin())) return &v;
  return nullptr;
}

std::string pldm_timestamp_text(Bytes t) {
  const unsigned year = t[10] | (t[11] << 8);
  if (year == 0) return {};
  char text[32];
  std::snprintf(text, sizeof text, "%04u-%02u-%02u %02u:%02u:%02u", year, unsigned{t[9]}, unsigned{t[8]}, unsigned{t[7]},
                unsigned{t[6]}, unsigned{t[5]});
  return text;
}

Result<PldmDescriptor> pldm_parse_descriptor(PldmCursor& c) {
  PldmDescriptor d;
  const std::uint64_t at = c.at();
  OF_ASSIGN(d.type, c.le16("descriptor type"));
  OF_ASSIGN(const std::uint16_t length, c.le16("descriptor length"));
  OF_ASSIGN(const Bytes data, c.take(length, "descriptor data"));
  d.data.assign(data.begin(), data.end());
  const std::uint16_t expected = pldm::descriptor_size(d.type);
  if (expected != 0 && length != expected)
    return make_error(ErrorCode::InvalidImage, "descriptor type " + hex_string(d.type) + " at " + hex_string(at) + " has " +
                                                   std::to_string(length) + " bytes, not " + std::to_string(expected));
  if (d.type == pldm::kDescVendorDefined) {
    if (length < 2 || std::uint64_t{data[1]} > length - 2u)
      return make_error(ErrorCode::InvalidImage, "vendor-defined descriptor at " + hex_string(at) +
                                                     ": its title runs past its " + std::to_string(length) + " bytes");
    d.title.assign(data.begin() + 2, data.begin() + 2 + data[1]);
    d.value.assign(data.begin() + 2 + data[1], data.end());
  }
  return d;
}

// A record's fields; `bitmap` is resolved against the component count once that is known.
Result<PldmDeviceRecord> pldm_parse_record(PldmCursor& c, bool downstream, std::uint8_t revision, std::uint16_t bitmap_bits,
                                      std::vector<std::uint8_t>& bitmap) {
  PldmDeviceRecord r;
  r.downstream = downstream;
  const std::uint64_t start = c.at();
  OF_ASSIGN(const std::uint16_t length, c.le16("record length"));
  OF_ASSIGN(const std::uint8_t descriptor_count, c.u8("descriptor count"));
  OF_ASSIGN(r.update_flags, c.le32("update option flags"));
  OF_ASSIGN(const std::uint8_t version_type, c.u8("version string type"));
  static_cast<void>(version_type);
  OF_ASSIGN(const std::uint8_t version_length, c.u8("version string length"));
  OF_ASSIGN(r.package_data_size, c.le16("package data length"));
  if (revision >= pldm::kRevisionPayloadChecksum) {
    OF_ASSIGN(r.reference_manifest_size, c.le32("reference manifest length"));
  }
  OF_ASSIGN(const Bytes bits, c.take(bitmap_bits / 8u, "applicable components"));
  bitmap.assign(bits.begin(), bits.end());
  OF_ASSIGN(r.version, c.text(version_length, "version string"));
  if (downstream && (r.update_flags & pldm::kDownstreamHasMinStamp) != 0) {
    OF_TRY(c.take(4, "minimum version comparison stamp"));
  }
  if (descriptor_count == 0)
    return make_error(ErrorCode::InvalidImage, "record at " + hex_string(start) + " has no descriptor");
  for (unsigned i = 0; i < descriptor_count; ++i) {
    OF_ASSIGN_CTX(PldmDescriptor d, pldm_parse_descriptor(c), "descriptor " + std::to_string(i));
    if (d.type == pldm::kDescVendorDefined && d.title == pldm::kNvidiaPsidTitle && r.psid.empty()) {
      const auto nul = std::find(d.value.begin(), d.value.end(), 0);
      r.psid.assign(d.value.begin(), nul);
    }
    r.descriptors.push_back(std::move(d));
  }
  OF_TRY(c.take(r.package_data_size, "package data"));
  OF_TRY(c.take(r.reference_manifest_size, "reference manifest"));
  if (c.at() - start != length)
    return make_error(ErrorCode::InvalidImage, "record at " + hex_string(start) + " measures " + std::to_string(c.at() - start) +
                                                   " bytes, its RecordLength says " + std::to_string(length));
  return r;
}

Result<PldmComponent> pldm_parse_component(PldmCursor& c, std::uint8_t revision) {
  PldmComponent p;
  OF_ASSIGN(p.classification, c.le16("component classification"));
  OF_ASSIGN(p.identifier, c.le16("component identifier"));
  OF_ASSIGN(p.comparison_stamp, c.le32("comparison stamp"));
  OF_ASSIGN(p.options, c.le16("component options"));
  OF_ASSIGN(p.activation_method, c.le16("activation method"));
  OF_ASSIGN(p.offset, c.le32("component location offset"));
  OF_ASSIGN(p.size, c.le32("component size"));
  OF_ASSIGN(const std::uint8_t version_type, c.u8("version string type"));
  static_cast<void>(version_type);
  OF_ASSIGN(const std::uint8_t version_length, c.u8("version string length"));
  OF_ASSIGN(p.version, c.text(version_length, "component version string"));
  if (revision >= pldm::kRevisionOpaqueData) {
    OF_ASSIGN(p.opaque_data_size, c.le32("component opaque data length"));
    OF_TRY(c.take(p.opaque_data_size, "component opaque data"));
  }
  return p;
}

}  // namespace

bool PldmPackage::has_header_identifier(Bytes head) { return pldm_header_version(head) != nullptr; }

Result<PldmPackage> PldmPackage::open(const std::string& path) {
  OF_ASSIGN(InputFile file, InputFile::open(path, UINT64_MAX, "PLDM package"));
  OF_ASSIGN_CTX(PldmPackage package, from_source(std::make_shared<const InputFile>(std::move(file))), path);
  return package;
}

Result<PldmPackage> PldmPackage::from_bytes(std::vector<std::uint8_t> package) {
  return from_source(std::make_shared<const MemorySource>(std::move(package)));
}

Result<PldmPackage> PldmPackage::from_source(std::shared_ptr<const ByteSource> source) {
  if (source == nullptr) return make_error(ErrorCode::InvalidArgument, "no package source");
  PldmPackage out;
  out.source_ = std::move(source);
  OF_TRY(out.parse());
  return out;
}

Result<void> PldmPackage::parse() {
  const ByteSource& file = *source_;
  OF_ASSIGN(const std::vector<std::uint8_t> head,
            file.read_range(0, std::min<std::uint64_t>(file.size(), pldm::kHeaderFixedSize)));
  const pldm::HeaderVersion* version = pldm_header_version(head);
  if (version == nullptr)
    return make_error(ErrorCode::InvalidImage, "no DSP0267 package header identifier at 0x0: not a PLDM package");
  if (head.size() < pldm::kHeaderFixedSize)
    return make_error(ErrorCode::InvalidImage, "PLDM package of " + std::to_string(head.size()) + " bytes: no room for its header");
  revision_ = head[16];
  spec_ = version->spec;
  if (revision_ != version->revision)
    return make_error(ErrorCode::InvalidImage, std::string("the DSP0267 ") + spec_ + " header identifier goes with format revision " +
                                                   std::to_string(version->revision) + ", the header says " +
                                                   std::to_string(revision_));
  header_size_ = static_cast<std::uint16_t>(head[17] | (head[18] << 8));
  const std::uint64_t checksums = revision_ >= pldm::kRevisionPayloadChecksum ? 8 : 4;
  if (header_size_ < pldm::kHeaderFixedSize + checksums || header_size_ > file.size())
    return make_error(ErrorCode::InvalidImage, "package header size " + std::to_string(header_size_) +
                                                   " is below its fixed part or past the end of the file (" +
                                                   std::to_string(file.size()) + " bytes)");
  OF_ASSIGN(const std::vector<std::uint8_t> header, file.read_range(0, header_size_));
  const Bytes body = Bytes(header).first(header_size_ - checksums);
  header_crc_ = pldm_le32(header.data() + body.size());
  const std::uint32_t computed = crc32(body);
  if (computed != header_crc_)
    return make_error(ErrorCode::Mismatch, "package header checksum is " + hex_string(header_crc_) + ", the header's CRC32 is " +
                                               hex_string(computed));
  PldmCursor c(body);
  OF_TRY(c.take(pldm::kHeaderFixedSize - 2 - pldm::kTimestampSize - 2, "header identifier"));
  OF_ASSIGN(const Bytes timestamp, c.take(pldm::kTimestampSize, "release date"));
  release_date_ = pldm_timestamp_text(timestamp);
  OF_ASSIGN(bitmap_bits_, c.le16("component bitmap bit length"));
  if (bitmap_bits_ % 8 != 0)
    return make_error(ErrorCode::InvalidImage, "component bitmap bit length " + std::to_string(bitmap_bits_) +
                                                   " is not a multiple of 8");
  OF_TRY(c.u8("package version string type"));
  OF_ASSIGN(const std::uint8_t version_length, c.u8("package version string length"));
  OF_ASSIGN(version_, c.text(version_length, "package version string"));

  std::vector<std::vector<std::uint8_t>> bitmaps;
  const unsigned areas = revision_ >= pldm::kRevisionDownstream ? 2 : 1;
  for (unsigned area = 0; area < areas; ++area) {
    const bool downstream = area == 1;
    OF_ASSIGN(const std::uint8_t count, c.u8(downstream ? "downstream device ID record count" : "device ID record count"));
    for (unsigned i = 0; i < count; ++i) {
      std::vector<std::uint8_t> bitmap;
      OF_ASSIGN_CTX(PldmDeviceRecord r, pldm_parse_record(c, downstream, revision_, bitmap_bits_, bitmap),
                    std::string(downstream ? "downstream device record " : "device record ") + std::to_string(i));
      records_.push_back(std::move(r));
      bitmaps.push_back(std::move(bitmap));
    }
    if (!downstream && count == 0) return make_error(ErrorCode::InvalidImage, "the package has no device ID record");
  }
  OF_ASSIGN(const std::uint16_t component_count, c.le16("component image count"));
  if (component_count == 0) return make_error(ErrorCode::InvalidImage, "the package has no component image");
  if (component_count > bitmap_bits_)
    return make_error(ErrorCode::InvalidImage, std::to_string(component_count) + " components, but the component bitmap has " +
                                                   std::to_string(bitmap_bits_) + " bits");
  for (unsigned i = 0; i < component_count; ++i) {
    OF_ASSIGN_CTX(const PldmComponent p, pldm_parse_component(c, revision_), "component " + std::to_string(i));
    components_.push_back(p);
  }
  if (c.at() != c.end())
    return make_error(ErrorCode::InvalidImage, "the component image information ends at " + hex_string(c.at()) +
                                                   ", the header size puts the checksum at " + hex_string(c.end()));
  for (std::size_t r = 0; r < records_.size(); ++r)
    for (std::size_t bit = 0; bit < bitmaps[r].size() * 8u; ++bit) {
      if ((bitmaps[r][bit / 8] & (1u << (bit % 8))) == 0) continue;
      if (bit >= component_count)
        return make_error(ErrorCode::InvalidImage, "device record " + std::to_string(r) + " applies component " +
                                                       std::to_string(bit) + " of " + std::to_string(component_count));
      records_[r].components.push_back(static_cast<std::uint16_t>(bit));
    }
  OF_TRY(check_components());
  if (revision_ >= pldm::kRevisionPayloadChecksum) OF_TRY(check_payload_crc(pldm_le32(header.data() + body.size() + 4)));
  return {};
}

// Every component inside the file, after the header, and no two sharing a byte.
Result<void> PldmPackage::check_components() const {
  const std::uint64_t file_size = source_->size();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (std::size_t i = 0; i < components_.size(); ++i) {
    const PldmComponent& p = components_[i];
    if (p.offset < header_size_ || p.offset > file_size || p.size > file_size - p.offset)
      return make_error(ErrorCode::InvalidImage, "component " + std::to_string(i) + " at " + hex_string(p.offset) + " + " +
                                                     std::to_string(p.size) + " bytes is not between the header's end " +
                                                     hex_string(header_size_) + " and the file's end " + hex_string(file_size));
    if (p.size != 0) ranges.emplace_back(p.offset, p.offset + p.size);
  }
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second)
      return make_error(ErrorCode::InvalidImage, "component images overlap at " + hex_string(ranges[i].first));
  return {};
}

// 1.3's PackagePayloadChecksum: CRC32 of everything after the header, read in chunks.
Result<void> PldmPackage::check_payload_crc(std::uint32_t expected) const {
  Crc32 crc;
  std::vector<std::uint8_t> buffer(kChunkSize);
  for (std::uint64_t at = header_size_; at < source_->size();) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), source_->size() - at));
    OF_TRY(source_->read(at, std::span(buffer).first(n)));
    crc.update(Bytes(buffer).first(n));
    at += n;
  }
  if (crc.value() != expected)
    return make_error(ErrorCode::Mismatch, "package payload checksum is " + hex_string(expected) + ", the payload's CRC32 is " +
                                               hex_string(crc.value()));
  return {};
}

}  // namespace openflint
