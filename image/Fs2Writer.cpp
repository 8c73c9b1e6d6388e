// Fs2Writer: lays out header, BOOT2 and the section chain of an FS2 image.
#include "image/Fs2Writer.h"

#include <algorithm>

#include "image/Fs2Header.h"
#include "image/Crc16.h"

namespace openflint {
namespace {

constexpr std::array<std::uint8_t, 16> kFs2DefaultBoot2{'o', 'p', 'e', 'n', 'f', 'l', 'i', 'n',
                                                      't', '-', 'b', 'o', 'o', 't', '2', 0};

Result<void> check_spec(const Fs2ImageSpec& spec) {
  OF_TRY(gph::check_info_texts(spec));
  if (spec.log2_chunk_size < 16 || spec.log2_chunk_size > 23)
    return make_error(ErrorCode::InvalidArgument, "log2_chunk_size must be 16..23");
  if (spec.striped && !spec.failsafe)
    return make_error(ErrorCode::InvalidArgument, "striped: only a failsafe image can be striped");
  if (spec.base_mac >> 48)
    return make_error(ErrorCode::InvalidArgument, "base_mac: more than 48 bits");
  if (spec.supported_hw_ids.size() > 200)
    return make_error(ErrorCode::InvalidArgument, "supported_hw_ids: more than 200 entries");
  if (!spec.boot2_code.empty()) OF_TRY(gph::check_boot2(spec.boot2_code, "boot2_code"));
  return gph::check_sections(spec.sections);
}

std::vector<std::uint8_t> guid_payload(const Fs2ImageSpec& spec) {
  std::vector<std::uint8_t> out;
  auto put64 = [&](std::uint64_t v) {
    gph::append_be32(out, static_cast<std::uint32_t>(v >> 32));
    gph::append_be32(out, static_cast<std::uint32_t>(v));
  };
  for (std::uint64_t i = 0; i < fs2::kGuidCount; ++i)
    put64(spec.zero_port_guids && (i == 1 || i == 2) ? 0 : spec.base_guid + i);
  for (std::uint64_t i = 0; i < fs2::kMacCount; ++i) put64(spec.base_mac + i);
  return out;
}

gph::ImageInfo image_info(const Fs2ImageSpec& spec) {
  gph::ImageInfo info;
  info.fw_version = spec.fw_version;
  info.release_date = spec.release_date;
  info.mic_version = spec.mic_version;
  info.device_id = spec.device_id;
  info.psid = spec.psid;
  info.vsd = spec.vsd;
  info.product_version = spec.product_version;
  info.hw_ids = spec.supported_hw_ids;
  info.config_area = spec.config_area;
  return info;
}

std::vector<std::uint8_t> stripe_two_copies(const std::vector<std::uint8_t>& image, unsigned log2_chunk) {
  const std::uint64_t chunk = std::uint64_t{1} << log2_chunk;
  const std::uint64_t chunks = (image.size() + chunk - 1) / chunk;
  std::vector<std::uint8_t> flash(2 * chunks * chunk, 0xff);
  for (std::uint64_t logical = 0; logical < image.size(); logical += chunk) {
    const std::uint64_t n = std::min<std::uint64_t>(chunk, image.size() - logical);
    for (bool odd : {false, true}) {
      const std::uint64_t phys = fs2::striped_address(logical, odd, log2_chunk);
      std::copy_n(image.begin() + static_cast<std::ptrdiff_t>(logical), n,
                  flash.begin() + static_cast<std::ptrdiff_t>(phys));
    }
  }
  return flash;
}

}  // namespace

Result<std::vector<std::uint8_t>> write_fs2_image(const Fs2ImageSpec& spec) {
  OF_TRY(check_spec(spec));
  std::vector<gph::GphSection> sections = spec.sections;
  sections.push_back({gph::kGuid, guid_payload(spec), 0});
  sections.push_back({gph::kImgInfo, gph::build_image_info(image_info(spec)), 0});
  if (!spec.ini.empty()) {
    OF_ASSIGN(auto packed, gph::deflate_config(spec.ini));
    sections.push_back({gph::kFwConf, std::move(packed), 0});
  }

  std::vector<std::uint8_t> image;
  for (auto word : fs2::kMagic) gph::append_be32(image, word);
  image.resize(fs2::kBoot2Offset, 0);
  if (spec.boot2_code.empty())
    gph::append_boot2(image, kFs2DefaultBoot2);
  else
    gph::append_boot2(image, spec.boot2_code);
  const std::vector<std::uint64_t> payloads = gph::append_chain(image, sections);
  const std::size_t guid_index = spec.sections.size();
  if (image.size() > 0xffffff)
    return make_error(ErrorCode::InvalidArgument, "sections: image larger than 16 MiB");

  std::uint8_t* p = image.data();
  store_be32(p + fs2::kFwIdOffset, std::uint32_t{spec.dev_rev} << 24 | 0xffff);
  store_be32(p + fs2::kBootVersionOffset, 0);
  store_be32(p + fs2::kFsWordOffset, fs2::make_fs_word(spec.failsafe, spec.log2_chunk_size));
  store_be32(p + fs2::kInfoPtrOffset,
             gph::with_checksum_byte(static_cast<std::uint32_t>(payloads[guid_index + 1])));
  store_be32(p + fs2::kImageSizeOffset, static_cast<std::uint32_t>(image.size()));
  store_be32(p + fs2::kGuidPtrOffset, static_cast<std::uint32_t>(payloads[guid_index]));
  // Whole-image CRC: every dword with this field's low half = 0xffff (each embedded section
  // CRC is already its own 16-bit value, which is what the verifier feeds).
  store_be32(p + fs2::kFwIdOffset, std::uint32_t{spec.dev_rev} << 24 | crc16(image));

  if (!spec.striped) return image;
  return stripe_two_copies(image, spec.log2_chunk_size);
}

}  // namespace openflint
