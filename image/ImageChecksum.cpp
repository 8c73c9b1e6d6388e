// ImageChecksum: the regions mstflint hashes per format (FS2 masked copy, FS3/FS4 BOOT2 + ITOC sections).
#include "image/ImageChecksum.h"

#include <algorithm>

#include "core/HexString.h"
#include "image/Crc16.h"
#include "image/FirmwareImage.h"
#include "image/Fs2Header.h"
#include "image/Fs3Image.h"
#include "image/Fs4Image.h"
#include "image/GphSections.h"
#include "image/SectionType.h"
#include "image/TocWalk.h"

namespace openflint {
namespace {

constexpr std::uint64_t kBootStart = 0x38;   // mstflint FS3_BOOT_START (= FS2_BOOT_START)
constexpr std::uint64_t kGuidMaskBefore = 0x10, kGuidMaskSize = 0x44;  // GPH + 4 GUIDs + ...
constexpr std::uint64_t kVsdMaskSize = 0xd0;

std::vector<std::uint8_t> copy_of(Bytes data, std::uint64_t offset, std::uint64_t size) {
  return {data.begin() + static_cast<std::ptrdiff_t>(offset),
          data.begin() + static_cast<std::ptrdiff_t>(offset + size)};
}

Result<void> mask(std::vector<std::uint8_t>& buf, std::uint64_t offset, std::uint64_t size, const char* what) {
  if (offset > buf.size() || size > buf.size() - offset)
    return make_error(ErrorCode::InvalidImage, std::string(what) + " at " + hex_string(offset) +
                                                   " lies outside the image (" + hex_string(buf.size()) + " bytes)");
  std::fill_n(buf.begin() + static_cast<std::ptrdiff_t>(offset), size, 0xff);
  return {};
}

// Offset of the VSD tag's data inside an IMG_INFO payload (tags: id << 24 | size, then data).
Result<std::uint64_t> vsd_offset(Bytes info) {
  const ByteReader reader(info);
  for (std::uint64_t at = 0; reader.contains(at, 4);) {
    const std::uint32_t tag = ByteReader::load_be32(info.data() + at);
    if ((tag >> 24) == gph::kTagVsd) return at + 4;
    if ((tag >> 24) == gph::kTagEnd) break;
    at += (tag & 0xffffff) + 4;
  }
  return make_error(ErrorCode::InvalidImage, "FS2 image: IMG_INFO has no VSD tag");
}

// FS2: [0, end of the last section) with the image CRC, the GUIDs, the VSD and the IMG_INFO CRC
// set to 0xFF; split at the section headers so a comparison can name a section.
Result<std::vector<ChecksumRegion>> fs2_regions(Bytes image) {
  OF_ASSIGN(const fs2::Header h, fs2::read_header(image));
  const gph::ChainWalk walk = gph::walk_chain(image, fs2::kBoot2Offset, 0, Crc16{});
  if (!walk.problems.empty()) return make_error(ErrorCode::InvalidImage, "FS2 image: " + walk.problems.front());
  const std::uint64_t info = h.info_ptr & 0xffffff;
  const gph::WalkedSection* info_sect = walk.find(gph::kImgInfo);
  if (info == 0 || info_sect == nullptr || info_sect->data != info)
    return make_error(ErrorCode::InvalidImage, "FS2 image: no IMG_INFO section at the info pointer");
  std::vector<std::uint8_t> buf = copy_of(image, 0, walk.end);
  OF_TRY(mask(buf, fs2::kFwIdOffset, 4, "image CRC"));
  if (h.guid_ptr < kGuidMaskBefore) return make_error(ErrorCode::InvalidImage, "FS2 image: bad GUID pointer");
  OF_TRY(mask(buf, h.guid_ptr - kGuidMaskBefore, kGuidMaskSize, "GUID section"));
  OF_ASSIGN(const std::uint64_t vsd, vsd_offset(image.subspan(info, info_sect->data_size)));
  OF_TRY(mask(buf, info + vsd, kVsdMaskSize, "VSD"));
  // The IMG_INFO CRC follows the payload whose size (dwords) is the GPH's second word.
  const std::uint64_t info_size = std::uint64_t{ByteReader::load_be32(buf.data() + info - gph::kHeaderSize + 4)} * 4;
  OF_TRY(mask(buf, info + info_size, 4, "IMG_INFO CRC"));

  std::vector<std::pair<std::uint64_t, std::string>> starts{{0, "BOOT2"}};
  for (const auto& s : walk.sections) starts.emplace_back(s.header, gph::section_name(s.type));
  std::sort(starts.begin(), starts.end());
  std::vector<ChecksumRegion> regions;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::uint64_t from = std::min<std::uint64_t>(starts[i].first, buf.size());
    const std::uint64_t to = i + 1 < starts.size() ? std::min<std::uint64_t>(starts[i + 1].first, buf.size())
                                                   : buf.size();
    if (to > from) regions.push_back({starts[i].second, from, copy_of(buf, from, to - from)});
  }
  return regions;
}

// FS3/FS4: [0, 0x38 + BOOT2 size), the ITOC header, then each ITOC entry followed by its data —
// FS3 skips entries marked device_data, FS4 hashes every ITOC entry (its device data is in the DTOC).
Result<std::vector<ChecksumRegion>> toc_regions(Bytes image, bool fs4) {
  OF_ASSIGN(const ItocLocation at, fs4 ? fs4::locate_itoc(image, 0) : fs3::locate_itoc(image, 0));
  const ByteReader reader(image);
  std::vector<ChecksumRegion> regions;
  const std::uint64_t boot_end = kBootStart + at.boot2_size;
  if (!reader.contains(0, boot_end)) return make_error(ErrorCode::InvalidImage, "BOOT2 runs past the image");
  regions.push_back({"BOOT2", 0, copy_of(image, 0, boot_end)});
  if (!reader.contains(at.itoc, kTocHeaderSize)) return make_error(ErrorCode::InvalidImage, "ITOC past the image");
  regions.push_back({"ITOC_HEADER", at.itoc, copy_of(image, at.itoc, kTocHeaderSize)});
  const TocWalkConfig config{TocKind::Itoc, fs4, fs4 ? TocAddressing::Relative : TocAddressing::PerEntryBit, 0,
                             [](std::uint8_t) { return false; }};
  const TocWalk walk = walk_toc(image, at.itoc, config);
  if (!walk.problems.empty()) return make_error(ErrorCode::InvalidImage, "ITOC: " + walk.problems.front());
  for (const TocSection& s : walk.sections) {
    if (!fs4 && s.entry.fs3_device_data()) continue;
    const std::uint64_t data_at = s.entry.flash_addr;  // mstflint: flash_addr << 2, image-relative
    if (!reader.contains(data_at, s.entry.size))
      return make_error(ErrorCode::InvalidImage, section_type::display_name(s.entry.type) + " at " +
                                                     hex_string(data_at) + " lies outside the image");
    ChecksumRegion r{section_type::display_name(s.entry.type), data_at, copy_of(image, s.entry_offset, kTocEntrySize)};
    r.bytes.insert(r.bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(data_at),
                   image.begin() + static_cast<std::ptrdiff_t>(data_at + s.entry.size));
    regions.push_back(std::move(r));
  }
  return regions;
}

}  // namespace

Result<std::vector<ChecksumRegion>> checksum_regions(Bytes data) {
  OF_ASSIGN(const ImageLocation where, locate_image(data));
  const Bytes image = data.subspan(where.offset);
  switch (where.format) {
    case ImageFormat::Fs2: return fs2_regions(image);
    case ImageFormat::Fs3: return toc_regions(image, false);
    case ImageFormat::Fs4: return toc_regions(image, true);
    case ImageFormat::Fs1: break;
  }
  return make_error(ErrorCode::NotSupported, "checksum is not defined for " + std::string(to_string(where.format)) +
                                                 " images (mstflint has none either)");
}

Result<Md5::Digest> image_checksum(Bytes data) {
  OF_ASSIGN(const std::vector<ChecksumRegion> regions, checksum_regions(data));
  Md5 md5;
  for (const ChecksumRegion& r : regions) md5.update(r.bytes);
  return md5.finish();
}

std::string checksum_text(const Md5::Digest& digest) {
  Md5::Digest reversed = digest;
  std::reverse(reversed.begin(), reversed.end());
  return Md5::to_hex(reversed);
}

}  // namespace openflint
