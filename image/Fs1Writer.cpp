// Fs1Writer: lays out the invariant sector, pointer sectors and two copies of an FS1 image.
#include "image/Fs1Writer.h"

#include <algorithm>
#include <array>

#include "image/Fs1PointerSector.h"

namespace openflint {
namespace {

constexpr std::array<std::uint8_t, 16> kFiller{'o', 'p', 'e', 'n', 'f', 'l', 'i', 'n',
                                                't', '-', 'f', 's', '1', 'b', 't', 0};

Result<void> check_spec(const Fs1ImageSpec& spec) {
  OF_TRY(gph::check_info_texts(spec));
  if (spec.log2_sector_size < 12 || spec.log2_sector_size > 20)
    return make_error(ErrorCode::InvalidArgument, "log2_sector_size must be 12..20");
  if (!spec.boot2_code.empty()) OF_TRY(gph::check_boot2(spec.boot2_code, "boot2_code"));
  if (spec.invariant_code.size() % 4 != 0)
    return make_error(ErrorCode::InvalidArgument, "invariant_code: size is not a multiple of 4");
  // Invariant BOOT2 = 0x28 offset + {0, N, log2 word, code, 0, crc}.
  if (fs1::kBoot2Offset + 20 + std::max<std::size_t>(spec.invariant_code.size(), 12) >
      (std::size_t{1} << spec.log2_sector_size))
    return make_error(ErrorCode::InvalidArgument, "invariant_code: does not fit in one sector");
  return gph::check_sections(spec.sections);
}

std::vector<std::uint8_t> invariant_sector(const Fs1ImageSpec& spec) {
  std::vector<std::uint8_t> out(fs1::kBoot2Offset, 0);
  store_be32(out.data() + fs1::kInvFwIdOffset, std::uint32_t{spec.dev_rev} << 24);
  store_be32(out.data() + fs1::kInvLog2PtrOffset, 0);  // log2 sector size = first BOOT2 data word
  store_be32(out.data() + fs1::kSignatureOffset, fs1::kSignature);
  std::vector<std::uint8_t> code;
  gph::append_be32(code, spec.log2_sector_size);
  if (spec.invariant_code.empty())
    code.insert(code.end(), kFiller.begin(), kFiller.end() - 4);
  else
    code.insert(code.end(), spec.invariant_code.begin(), spec.invariant_code.end());
  while (code.size() < 16) code.push_back(0);
  gph::append_boot2(out, code);
  return out;
}

Result<std::vector<std::uint8_t>> image_copy(const Fs1ImageSpec& spec) {
  std::vector<gph::GphSection> sections = spec.sections;
  std::vector<std::uint8_t> guids;
  for (std::uint64_t i = 0; i < fs1::kGuidCount; ++i) {
    gph::append_be32(guids, static_cast<std::uint32_t>((spec.base_guid + i) >> 32));
    gph::append_be32(guids, static_cast<std::uint32_t>(spec.base_guid + i));
  }
  gph::ImageInfo info;
  info.fw_version = spec.fw_version;
  info.release_date = spec.release_date;
  info.device_id = spec.device_id;
  info.psid = spec.psid;
  info.vsd = spec.vsd;
  info.product_version = spec.product_version;
  info.hw_ids = spec.supported_hw_ids;
  sections.push_back({gph::kGuid, std::move(guids), 0});
  sections.push_back({gph::kImgInfo, gph::build_image_info(info), 0});
  if (!spec.ini.empty()) {
    OF_ASSIGN(auto packed, gph::deflate_config(spec.ini));
    sections.push_back({gph::kFwConf, std::move(packed), 0});
  }
  std::vector<std::uint8_t> image(fs1::kBoot2Offset, 0);
  gph::append_boot2(image, spec.boot2_code.empty() ? Bytes(kFiller) : Bytes(spec.boot2_code));
  const auto payloads = gph::append_chain(image, sections);
  if (image.size() > 0xffffff) return make_error(ErrorCode::InvalidArgument, "sections: image larger than 16 MiB");
  const std::size_t guid_index = spec.sections.size();
  store_be32(image.data() + fs1::kFwIdOffset, std::uint32_t{spec.dev_rev} << 24);
  store_be32(image.data() + fs1::kInfoPtrOffset,
             gph::with_checksum_byte(static_cast<std::uint32_t>(payloads[guid_index + 1])));
  store_be32(image.data() + fs1::kFwSizeOffset, static_cast<std::uint32_t>(image.size()));
  store_be32(image.data() + fs1::kGuidPtrOffset, static_cast<std::uint32_t>(payloads[guid_index]));
  return image;
}

}  // namespace

Result<std::vector<std::uint8_t>> write_fs1_image(const Fs1ImageSpec& spec) {
  OF_TRY(check_spec(spec));
  OF_ASSIGN(const std::vector<std::uint8_t> copy, image_copy(spec));
  const std::size_t sector = std::size_t{1} << spec.log2_sector_size;
  const std::size_t copy_span = (copy.size() + sector - 1) / sector * sector;
  const std::size_t primary = 3 * sector;
  const std::size_t secondary = primary + copy_span;
  std::vector<std::uint8_t> flash(secondary + copy_span, 0xff);

  const auto inv = invariant_sector(spec);
  std::copy(inv.begin(), inv.end(), flash.begin());
  const std::array<std::size_t, 2> addrs{primary, secondary};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto ps = fs1::make_pointer_sector(static_cast<std::uint32_t>(addrs[i]),
                                             static_cast<std::uint32_t>(copy.size()), spec.vsd, spec.psid);
    std::copy(ps.begin(), ps.end(), flash.begin() + static_cast<std::ptrdiff_t>((i + 1) * sector));
    std::copy(copy.begin(), copy.end(), flash.begin() + static_cast<std::ptrdiff_t>(addrs[i]));
  }
  return flash;
}

}  // namespace openflint
