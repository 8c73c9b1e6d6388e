// GphImageInfo: the FS1/FS2 IMG_INFO tag list and the zlib FW_CONF payload (GphSections.h).
#include <zlib.h>

#include <algorithm>

#include <cstdio>

#include "image/GphSections.h"
#include "image/ImageInfo.h"

namespace openflint::gph {
namespace {

std::uint32_t to_bcd(std::uint32_t v) {
  std::uint32_t out = 0;
  for (int shift = 0; v != 0; shift += 4, v /= 10) out |= (v % 10) << shift;
  return out;
}

std::uint32_t from_bcd(std::uint32_t v) {
  std::uint32_t out = 0;
  for (std::uint32_t mul = 1; v != 0; mul *= 10, v >>= 4) out += (v & 0xf) * mul;
  return out;
}

void append_text(std::vector<std::uint8_t>& out, std::uint32_t tag, const std::string& s,
                 std::size_t len) {
  append_be32(out, tag << 24 | static_cast<std::uint32_t>(len));
  const std::size_t at = out.size();
  out.resize(at + len, 0);
  std::copy(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(std::min(s.size(), len)), out.begin() + static_cast<std::ptrdiff_t>(at));
}

std::string text_of(Bytes value) {
  std::string out;
  for (auto b : value) {
    if (b == 0) break;
    out.push_back(static_cast<char>(b));
  }
  return out;
}

void apply_tag(ImageInfo& info, std::uint32_t id, Bytes value) {
  auto dw = [&](std::size_t i) { return ByteReader::load_be32(value.data() + 4 * i); };
  const std::size_t dwords = value.size() / 4;
  switch (id) {
    case kTagFwVersion:
      if (dwords >= 2)
        info.fw_version = FwVersion{static_cast<std::uint16_t>(dw(0) >> 16),
                                    static_cast<std::uint16_t>(dw(1) >> 16),
                                    static_cast<std::uint16_t>(dw(1) & 0xffff)};
      break;
    case kTagBuildTime:
      if (dwords >= 2)
        info.release_date = ReleaseDate{static_cast<std::uint16_t>(from_bcd(dw(1) >> 16)),
                                        static_cast<std::uint8_t>(from_bcd((dw(1) >> 8) & 0xff)),
                                        static_cast<std::uint8_t>(from_bcd(dw(1) & 0xff))};
      break;
    case kTagDeviceType:
      if (dwords >= 1) info.device_id = static_cast<std::uint16_t>(dw(0) & 0xffff);
      break;
    case kTagMicVersion:
      if (dwords >= 2)
        info.mic_version = FwVersion{static_cast<std::uint16_t>(dw(0) >> 16),
                                     static_cast<std::uint16_t>(dw(1) >> 16),
                                     static_cast<std::uint16_t>(dw(1) & 0xffff)};
      break;
    case kTagPsid: info.psid = text_of(value.first(std::min(value.size(), kPsidLen))); break;
    case kTagVsd: info.vsd = text_of(value.first(std::min(value.size(), kVsdLen))); break;
    case kTagProductVer:
      info.product_version = text_of(value.first(std::min(value.size(), kProductVerLen)));
      break;
    case kTagHwDevsId:
      for (std::size_t i = 0; i < dwords; ++i) info.hw_ids.push_back(dw(i));
      break;
    case Fs2ConfigArea::kTag:  // config_sectors, config_pad[, log2 fw sector size in KiB]
      if (dwords >= 2) {
        Fs2ConfigArea area{.config_sectors = dw(0), .config_pad = dw(1)};
        if (dwords >= 3 && dw(2) < 16) area.log2_sector_kib = dw(2);
        info.config_area = area;
      }
      break;
    default: break;  // other tags carry nothing the query reports
  }
}

}  // namespace

void add_image_info(const ImageInfo& info, ImageQuery& q) {
  q.fw_version = info.fw_version;
  q.release_date = info.release_date;
  q.product_version = info.product_version;
  q.supported_hw_ids = info.hw_ids;
  q.pci_device_id = info.device_id;
  if (q.psid.empty()) q.psid = info.psid;
  if (q.image_vsd.empty()) q.image_vsd = info.vsd;
}

Result<ImageInfo> parse_image_info(Bytes payload) {
  ImageInfo info;
  const ByteReader r(payload);
  std::uint64_t at = 0;
  while (at < payload.size()) {
    OF_ASSIGN(const std::uint32_t word, r.be32(at));
    const std::uint32_t id = word >> 24;
    const std::uint32_t size = word & 0xffffff;
    auto value = r.slice(at + 4, size);
    if (!value) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "image info tag %u at 0x%llx: size 0x%x exceeds the section",
                    id, static_cast<unsigned long long>(at), size);
      return make_error(ErrorCode::InvalidImage, buf);
    }
    if (id == kTagEnd) {
      if (at + 4 + size != payload.size())
        return make_error(ErrorCode::InvalidImage, "image info: end tag before the section end");
      return info;
    }
    apply_tag(info, id, *value);
    at += 4 + (std::uint64_t{size} + 3) / 4 * 4;
  }
  return make_error(ErrorCode::InvalidImage, "image info: no end tag before the section end");
}

std::vector<std::uint8_t> build_image_info(const ImageInfo& info) {
  std::vector<std::uint8_t> out;
  if (info.fw_version) {
    append_be32(out, kTagFwVersion << 24 | 8);
    append_be32(out, std::uint32_t{info.fw_version->major} << 16);
    append_be32(out, std::uint32_t{info.fw_version->minor} << 16 | info.fw_version->subminor);
  }
  if (info.release_date) {
    append_be32(out, kTagBuildTime << 24 | 8);
    append_be32(out, 0);
    append_be32(out, to_bcd(info.release_date->year) << 16 | to_bcd(info.release_date->month) << 8 |
                         to_bcd(info.release_date->day));
  }
  if (info.device_id) {
    append_be32(out, kTagDeviceType << 24 | 4);
    append_be32(out, *info.device_id);
  }
  if (info.mic_version) {
    append_be32(out, kTagMicVersion << 24 | 8);
    append_be32(out, std::uint32_t{info.mic_version->major} << 16);
    append_be32(out, std::uint32_t{info.mic_version->minor} << 16 | info.mic_version->subminor);
  }
  append_text(out, kTagPsid, info.psid, kPsidLen);
  append_text(out, kTagVsd, info.vsd, kVsdLen);
  if (!info.product_version.empty())
    append_text(out, kTagProductVer, info.product_version, kProductVerLen);
  if (!info.hw_ids.empty()) {
    append_be32(out, kTagHwDevsId << 24 | static_cast<std::uint32_t>(4 * info.hw_ids.size()));
    for (auto id : info.hw_ids) append_be32(out, id);
  }
  if (info.config_area) {
    append_be32(out, Fs2ConfigArea::kTag << 24 | 12);
    append_be32(out, info.config_area->config_sectors);
    append_be32(out, info.config_area->config_pad);
    append_be32(out, info.config_area->log2_sector_kib);
  }
  append_be32(out, kTagEnd << 24);
  return out;
}

Result<std::string> inflate_config(Bytes payload) {
  // The zero padding after the stream is ignored; the same bound on the inflated size as FS3/FS4.
  OF_ASSIGN_CTX(std::string ini, inflate_zlib_section(payload), "FW_CONF section");
  return ini;
}

Result<std::vector<std::uint8_t>> deflate_config(const std::string& ini) {
  uLongf size = compressBound(static_cast<uLong>(ini.size()));
  std::vector<std::uint8_t> out(size);
  if (compress2(out.data(), &size, reinterpret_cast<const Bytef*>(ini.data()),
                static_cast<uLong>(ini.size()), 9) != Z_OK)
    return make_error(ErrorCode::Internal, "zlib compress2 failed");
  out.resize((size + 3) / 4 * 4, 0);
  return out;
}

}  // namespace openflint::gph
