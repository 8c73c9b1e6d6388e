// Fs2Image: FS2 (ConnectX-1..3) detection, query, verify and FW_CONF extraction.
#include "core/HexString.h"
#include "image/Fs2Image.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "image/Fs2Header.h"
#include "image/GphSections.h"

namespace openflint::fs2 {
namespace {

// A walk that found every section intact: the layout guess that produced it is right.
bool walk_is_clean(const gph::ChainWalk& walk) {
  if (!walk.problems.empty()) return false;
  for (const auto& c : walk.checks)
    if (c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid) return false;
  return true;
}

std::size_t good_sections(const gph::ChainWalk& walk) {
  std::size_t n = 0;
  for (const auto& c : walk.checks) n += c.status == SectionStatus::Ok ? 1 : 0;
  return n;
}

// One image copy seen as contiguous logical bytes (de-striped when the file is a flash dump).
struct View {
  std::vector<std::uint8_t> owned;
  Bytes image;
  bool striped = false;
  Header header;
  gph::ChainWalk walk;
  std::vector<std::string> problems;  // header-level problems
};

gph::ChainWalk walk_image(Bytes image) {
  Crc16 crc;
  if (image.size() >= kBoot2Offset) {
    std::array<std::uint8_t, kBoot2Offset> head{};
    std::copy(image.begin(), image.begin() + kBoot2Offset, head.begin());
    head[kFwIdOffset + 2] = 0xff;  // the image CRC is computed with its own field = 0xffff
    head[kFwIdOffset + 3] = 0xff;
    crc.update(head);
  }
  return gph::walk_chain(image, kBoot2Offset, 0, crc);
}

Result<View> open_view(Bytes data, std::uint64_t offset) {
  if (!probe(data, offset))
    return make_error(ErrorCode::InvalidImage, "no FS2 image at " + hex_string(offset));
  View view;
  OF_ASSIGN(view.header, read_header(data.subspan(offset)));
  const Header& h = view.header;
  if (!h.fs_word_ok) view.problems.push_back("failsafe info word " + hex_string(h.fs_word) + ": bad checksum");
  const std::uint64_t chunk = std::uint64_t{1} << h.log2_chunk;
  if (h.failsafe && offset != 0 && offset != chunk)
    view.problems.push_back("failsafe image at " + hex_string(offset) + " must start at 0 or at the chunk size " + hex_string(chunk));
  if (!h.failsafe && offset != 0)
    view.problems.push_back("non failsafe image must start at 0, found at " + hex_string(offset));

  const Bytes contiguous = data.subspan(offset);
  const bool can_stripe = h.failsafe && h.fs_word_ok && (offset == 0 || offset == chunk);
  std::vector<std::uint8_t> destriped;
  if (can_stripe) destriped = destripe(data, offset != 0, h.log2_chunk);
  // A second copy's magic in the other chunk set, or a start at the chunk size, says "flash dump".
  const bool prefer_striped = can_stripe && (offset != 0 || probe(data, chunk));
  gph::ChainWalk plain = walk_image(contiguous);
  if (!can_stripe || (walk_is_clean(plain) && !prefer_striped)) {
    view.image = contiguous;
    view.walk = std::move(plain);
    return view;
  }
  gph::ChainWalk striped = walk_image(destriped);
  const bool use_striped = walk_is_clean(striped) ||
                           (!walk_is_clean(plain) && (prefer_striped || good_sections(striped) > good_sections(plain)));
  if (!use_striped) {
    view.image = contiguous;
    view.walk = std::move(plain);
    return view;
  }
  view.owned = std::move(destriped);
  view.image = view.owned;
  view.striped = true;
  view.walk = std::move(striped);
  return view;
}

// The payload a header pointer (GUID, info) names: size from the GPH word 12 bytes before it.
Result<Bytes> pointed_payload(Bytes image, std::uint32_t ptr, const char* what) {
  const ByteReader r(image);
  if (ptr < gph::kHeaderSize || ptr >= image.size())
    return make_error(ErrorCode::InvalidImage, std::string(what) + " pointer " + hex_string(ptr) + " is out of the image");
  OF_ASSIGN(const std::uint32_t dwords, r.be32(ptr - 12));
  auto payload = r.slice(ptr, std::uint64_t{dwords} * 4);
  if (!payload)
    return make_error(ErrorCode::InvalidImage,
                      std::string(what) + " at " + hex_string(ptr) + ": size " + hex_string(dwords * 4ull) + " runs past the end");
  return *payload;
}

Result<void> query_guids(Bytes image, const Header& h, ImageQuery& q) {
  OF_ASSIGN(const Bytes guids, pointed_payload(image, h.guid_ptr, "GUID section"));
  const std::size_t n = guids.size() / 8;
  if (n > kMaxGuids) return make_error(ErrorCode::InvalidImage, "GUID section holds " + std::to_string(n) + " entries");
  auto entry = [&](std::size_t i) {
    return (std::uint64_t{ByteReader::load_be32(guids.data() + 8 * i)} << 32) |
           ByteReader::load_be32(guids.data() + 8 * i + 4);
  };
  if (n >= 1) q.base_guid = UidRange{entry(0), static_cast<std::uint32_t>(std::min<std::size_t>(n, kGuidCount))};
  if (n >= kGuidCount + kMacCount) q.base_mac = UidRange{entry(kGuidCount), kMacCount};
  q.uids.clear();
  for (std::size_t i = 0; i < n; ++i) q.uids.push_back(entry(i));
  return {};
}

}  // namespace

bool probe(Bytes data, std::uint64_t offset) {
  if (!has_magic(data, offset)) return false;
  auto boot_version = ByteReader(data).be32(offset + kBootVersionOffset);
  return boot_version && (*boot_version >> 24) == 0;  // FS3 puts 3 here
}

namespace {

// Header fields, the image info section and the GUID section: what a query reports.
Result<ImageQuery> query_copy(Bytes image, const Header& h, std::uint64_t offset) {
  ImageQuery q;
  q.format = ImageFormat::Fs2;
  q.image_start = offset;
  q.failsafe = h.failsafe;
  q.image_size = h.image_size;
  if (!gph::byte_sum_is_zero(h.info_ptr))
    return make_error(ErrorCode::InvalidImage, "info section pointer " + hex_string(h.info_ptr) + ": bad checksum");
  if ((h.info_ptr & 0xffffff) != 0) {
    OF_ASSIGN(const Bytes payload, pointed_payload(image, h.info_ptr & 0xffffff, "image info section"));
    OF_ASSIGN_CTX(const gph::ImageInfo info, gph::parse_image_info(payload), "image info section");
    gph::add_image_info(info, q);  // q is fresh: its PSID and VSD are the section's
  }
  OF_TRY(query_guids(image, h, q));
  return q;
}

}  // namespace

Result<ImageQuery> query(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(const View view, open_view(data, offset));
  return query_copy(view.image, view.header, offset);
}

Result<ImageQuery> query_by_pointers(Bytes copy) {
  if (!probe(copy, 0)) return make_error(ErrorCode::InvalidImage, "no FS2 image at 0x0");
  OF_ASSIGN(const Header h, read_header(copy));
  if (!h.fs_word_ok) return make_error(ErrorCode::InvalidImage, "failsafe info word " + hex_string(h.fs_word) + ": bad checksum");
  return query_copy(copy, h, 0);
}

Result<VerifyReport> verify(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(View view, open_view(data, offset));
  VerifyReport report;
  report.format = ImageFormat::Fs2;
  report.image_start = offset;
  const Header& h = view.header;
  report.layout = h.failsafe ? "FS2 failsafe image, chunk size " + hex_string(std::uint64_t{1} << h.log2_chunk) +
                                   (view.striped ? ", striped (flash layout)" : ", contiguous")
                             : "FS2 non failsafe image";
  report.sections = std::move(view.walk.checks);
  report.problems = std::move(view.problems);
  report.problems.insert(report.problems.end(), view.walk.problems.begin(), view.walk.problems.end());
  const gph::WalkedSection* info_sect = view.walk.find(gph::kImgInfo);
  if (info_sect && info_sect->crc_ok) {
    auto info = gph::parse_image_info(view.image.subspan(info_sect->data, info_sect->data_size));
    if (!info) {
      report.problems.push_back(info.error().with_context("image info section").message());
    } else if (info->mic_version && view.walk.problems.empty()) {
      // mstflint checks the whole-image CRC only for images that carry a MIC version tag.
      const std::uint16_t stored = static_cast<std::uint16_t>(h.fw_id & 0xffff);
      SectionCheck full{0, view.walk.end, "Full Image", SectionStatus::Ok, {}};
      if (stored != view.walk.image_crc) {
        full.status = SectionStatus::WrongCrc;
        full.detail = "expected " + hex_string(view.walk.image_crc) + ", found " + hex_string(stored);
      }
      report.sections.push_back(full);
    }
  }
  // What the boot reads must parse too (the GUID section, the pointers), as for FS3/FS4.
  if (report.bootable())
    if (auto q = query(data, offset); !q) report.problems.push_back("cannot boot: " + q.error().message());
  return report;
}

Result<std::string> dump_config(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(const View view, open_view(data, offset));
  const gph::WalkedSection* conf = view.walk.find(gph::kFwConf);
  if (!conf) return make_error(ErrorCode::NotFound, "FS2 image has no FW_CONF section");
  if (!conf->crc_ok) return make_error(ErrorCode::InvalidImage, "FW_CONF section has a wrong CRC");
  OF_ASSIGN_CTX(std::string ini, gph::inflate_config(view.image.subspan(conf->data, conf->data_size)),
                "dumping FS2 configuration");
  return ini;
}

}  // namespace openflint::fs2
