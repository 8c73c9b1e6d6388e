// ImageInfo: field offsets of IMAGE_INFO / DEV_INFO (tools_layouts image_layout_*), BCD date.
#include "core/HexString.h"
#include "image/ImageInfo.h"

#include <zlib.h>

#include <string>

#include "image/TocWalk.h"

namespace openflint {
namespace {

// IMAGE_INFO offsets.
constexpr std::uint64_t kMinImageInfoSize = 0x380;  // through the end of the name field
constexpr std::uint64_t kFwVersion = 0x04;  // major [31:16]; 0x08 minor [31:16] subminor [15:0]
constexpr std::uint64_t kFwDate = 0x10;     // year [31:16], month [15:8], day [7:0] (BCD)
constexpr std::uint64_t kPciIds = 0x1C;     // device [31:16], vendor [15:0]
constexpr std::uint64_t kPsid = 0x24;
constexpr std::uint64_t kVsd = 0x38;
constexpr std::uint64_t kSupportedHwIds = 0x118;
constexpr std::uint64_t kProdVer = 0x1C0;
constexpr std::uint64_t kDescription = 0x1D0;
constexpr std::uint64_t kMadModuleVersion = 0x314;  // module_versions.mad: major [31:20]
constexpr std::uint64_t kName = 0x340;

// DEV_INFO offsets: guids entry at 0x20, macs entry at 0x30, each {num_allocated [7:0], uid @+8}.
constexpr std::uint64_t kDevInfoGuids = 0x20;
constexpr std::uint64_t kDevInfoMacs = 0x30;
constexpr std::uint64_t kDevInfoVsd = 0x70;  // 208 bytes

std::uint16_t from_bcd(std::uint32_t bcd) {
  std::uint32_t value = 0;
  for (int shift = 12; shift >= 0; shift -= 4) value = value * 10 + ((bcd >> shift) & 0xF);
  return static_cast<std::uint16_t>(value);
}

Result<std::optional<UidRange>> read_uid(const ByteReader& r, std::uint64_t offset) {
  OF_ASSIGN(const std::uint32_t head, r.be32(offset));
  OF_ASSIGN(const std::uint64_t uid, r.be64(offset + 8));
  if (uid == 0) return std::optional<UidRange>{};
  return std::optional<UidRange>{UidRange{uid, head & 0xFF}};
}

Result<void> parse_strings(const ByteReader& r, std::uint8_t minor, ImageQuery& q) {
  OF_ASSIGN(q.psid, r.fixed_string(kPsid, 16));
  OF_ASSIGN(q.image_vsd, r.fixed_string(kVsd, 208));
  OF_ASSIGN(q.product_version, r.fixed_string(kProdVer, 16));
  if (minor == 2 || minor == 3) {  // older layouts carry no name/description
    OF_ASSIGN(q.description, r.fixed_string(kDescription, 256));
    OF_ASSIGN(q.name, r.fixed_string(kName, 64));
  }
  return {};
}

}  // namespace

Result<void> parse_image_info(Bytes section, ImageQuery& q) {
  const ByteReader r(section);
  if (section.size() < kMinImageInfoSize)
    return make_error(ErrorCode::InvalidImage, "IMAGE_INFO section too small (" +
                                                   hex_string(section.size()) + " bytes, need " +
                                                   hex_string(kMinImageInfoSize) + ")");
  OF_ASSIGN(const std::uint32_t head, r.be32(0));
  const auto major = static_cast<std::uint8_t>(head >> 24);
  const auto minor = static_cast<std::uint8_t>(head >> 16);
  if (major != 0)
    return make_error(ErrorCode::NotSupported, "unknown IMAGE_INFO format version " +
                                                   std::to_string(major) + "." +
                                                   std::to_string(minor));
  q.mcc_enabled = ((head >> 8) & 1) != 0;
  OF_ASSIGN(const std::uint32_t v0, r.be32(kFwVersion));
  OF_ASSIGN(const std::uint32_t v1, r.be32(kFwVersion + 4));
  q.fw_version = FwVersion{static_cast<std::uint16_t>(v0 >> 16), static_cast<std::uint16_t>(v1 >> 16),
                           static_cast<std::uint16_t>(v1)};
  OF_ASSIGN(const std::uint32_t date, r.be32(kFwDate));
  if (date != 0)
    q.release_date = ReleaseDate{from_bcd(date >> 16), static_cast<std::uint8_t>(from_bcd((date >> 8) & 0xFF)),
                                 static_cast<std::uint8_t>(from_bcd(date & 0xFF))};
  OF_ASSIGN(const std::uint32_t mad, r.be32(kMadModuleVersion));
  if ((mad >> 20) != 0) q.issu_version = mad >> 20;
  OF_ASSIGN(const std::uint32_t pci, r.be32(kPciIds));
  if ((pci >> 16) != 0) q.pci_device_id = static_cast<std::uint16_t>(pci >> 16);
  if ((pci & 0xFFFF) != 0) q.pci_vendor_id = static_cast<std::uint16_t>(pci);
  q.supported_hw_ids.clear();
  for (int i = 0; i < 4; ++i) {
    OF_ASSIGN(const std::uint32_t id, r.be32(kSupportedHwIds + 4 * i));
    if (id != 0) q.supported_hw_ids.push_back(id);
  }
  return parse_strings(r, minor, q);
}

Result<void> parse_dev_info(Bytes section, ImageQuery& q) {
  const ByteReader r(section);
  OF_ASSIGN_CTX(const std::optional<UidRange> guids, read_uid(r, kDevInfoGuids), "DEV_INFO guids");
  OF_ASSIGN_CTX(const std::optional<UidRange> macs, read_uid(r, kDevInfoMacs), "DEV_INFO macs");
  q.base_guid = guids;
  q.base_mac = macs;
  if (section.size() >= kDevInfoVsd + 208) {
    OF_ASSIGN(q.device_vsd, r.fixed_string(kDevInfoVsd, 208));
  }
  return {};
}

Result<std::string> inflate_zlib_section(Bytes section) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return make_error(ErrorCode::Internal, "zlib inflateInit failed");
  std::string out;
  zs.next_in = const_cast<Bytef*>(section.data());
  zs.avail_in = static_cast<uInt>(section.size());
  int rc = Z_OK;
  char buf[65536];
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
    if (out.size() > kMaxInflatedConfigBytes) {
      inflateEnd(&zs);
      return make_error(ErrorCode::InvalidImage, "zlib stream inflates past the " +
                                                     std::to_string(kMaxInflatedConfigBytes) + "-byte INI limit");
    }
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END)
    return make_error(ErrorCode::InvalidImage,
                      "zlib stream is " + std::string(rc == Z_BUF_ERROR ? "truncated" : "corrupt") +
                          " after " + std::to_string(out.size()) + " output bytes");
  return out;
}

}  // namespace openflint
