// Fs1Image: FS1 (InfiniHost, invariant sector + two pointer sectors) query, verify, INI dump.
#include "core/HexString.h"
#include "image/Fs1Image.h"

#include <array>
#include <cstdio>
#include <optional>

#include "image/Fs1PointerSector.h"
#include "image/GphSections.h"

namespace openflint::fs1 {
namespace {

// One image copy as its pointer sector names it.
struct Copy {
  const char* name = "";  // "Primary" / "Secondary"
  std::uint64_t ps_at = 0;
  std::optional<PointerSector> ps;
  std::string ps_problem;  // empty when the pointer sector is signed, CRC-correct and in range
  Bytes image;             // from fi_addr to the end of the data
};

struct Layout {
  unsigned log2_sector = 16;
  std::array<Copy, 2> copies;
  [[nodiscard]] const Copy* active() const {
    for (const auto& c : copies)
      if (c.ps_problem.empty()) return &c;
    return nullptr;
  }
};

Copy read_copy(Bytes data, std::uint64_t offset, std::uint64_t sector, int index) {
  Copy c;
  c.name = index == 0 ? "Primary" : "Secondary";
  c.ps_at = offset + sector * (index + 1);
  auto ps = read_pointer_sector(data, c.ps_at);
  if (!ps) {
    c.ps_problem = ps.error().message();
    return c;
  }
  c.ps = *ps;
  if (!ps->signed_ok()) {
    c.ps_problem = "invalid signature " + hex_string(ps->signature);
    return c;
  }
  if (ps->fi_addr < 3 * sector || offset + ps->fi_addr >= data.size()) {
    c.ps_problem = "image address " + hex_string(ps->fi_addr) + " is outside the flash";
    return c;
  }
  // A signed sector with a wrong CRC still names its copy; verify lists that copy too.
  c.image = data.subspan(offset + ps->fi_addr);
  if (!ps->crc_ok()) c.ps_problem = "expected " + hex_string(ps->computed_crc) + ", found " + hex_string(ps->stored_crc);
  return c;
}

Result<Layout> read_layout(Bytes data, std::uint64_t offset) {
  if (!probe(data, offset))
    return make_error(ErrorCode::InvalidImage, "no FS1 invariant sector signature at " + hex_string(offset));
  Layout layout;
  OF_ASSIGN(layout.log2_sector, read_log2_sector_size(data, offset));
  const std::uint64_t sector = std::uint64_t{1} << layout.log2_sector;
  for (int i = 0; i < 2; ++i) layout.copies[i] = read_copy(data, offset, sector, i);
  return layout;
}

SectionCheck pointer_sector_check(const Copy& c) {
  SectionCheck check{c.ps_at, kPsSize, std::string(c.name) + " Pointer Sector", SectionStatus::Ok, c.ps_problem};
  if (c.ps_problem.empty()) return check;
  const bool crc_only = c.ps && c.ps->signed_ok() && !c.ps->crc_ok();
  check.status = crc_only ? SectionStatus::WrongCrc : SectionStatus::Invalid;
  return check;
}

gph::ChainWalk walk_copy(const Copy& c) {
  return gph::walk_chain(c.image, kBoot2Offset, c.ps->fi_addr, Crc16{});
}

Result<Bytes> pointed_payload(Bytes image, std::uint32_t ptr, const char* what) {
  const ByteReader r(image);
  if (ptr < gph::kHeaderSize || ptr >= image.size())
    return make_error(ErrorCode::InvalidImage, std::string(what) + " pointer " + hex_string(ptr) + " is out of the image");
  OF_ASSIGN(const std::uint32_t dwords, r.be32(ptr - 12));
  auto payload = r.slice(ptr, std::uint64_t{dwords} * 4);
  if (!payload) return make_error(ErrorCode::InvalidImage, std::string(what) + " runs past the end");
  return *payload;
}

Result<void> query_image_info(Bytes image, ImageQuery& q) {
  const ByteReader r(image);
  OF_ASSIGN(const std::uint32_t info_ptr, r.be32(kInfoPtrOffset));
  if (!gph::byte_sum_is_zero(info_ptr))
    return make_error(ErrorCode::InvalidImage, "info section pointer " + hex_string(info_ptr) + ": bad checksum");
  if ((info_ptr & 0xffffff) == 0) return {};
  OF_ASSIGN(const Bytes payload, pointed_payload(image, info_ptr & 0xffffff, "image info section"));
  OF_ASSIGN_CTX(const gph::ImageInfo info, gph::parse_image_info(payload), "image info section");
  gph::add_image_info(info, q);
  return {};
}

}  // namespace

bool probe(Bytes data, std::uint64_t offset) {
  auto sig = ByteReader(data).be32(offset + kSignatureOffset);
  return sig && *sig == kSignature;
}

Result<ImageQuery> query(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(const Layout layout, read_layout(data, offset));
  const Copy* c = layout.active();
  if (!c) return make_error(ErrorCode::InvalidImage, "FS1: neither pointer sector is valid");
  ImageQuery q;
  q.format = ImageFormat::Fs1;
  q.image_start = offset + c->ps->fi_addr;
  q.failsafe = true;
  q.psid = c->ps->psid;
  q.image_vsd = c->ps->vsd;
  const ByteReader r(c->image);
  OF_ASSIGN(const std::uint32_t fw_size, r.be32(kFwSizeOffset));
  q.image_size = fw_size;
  OF_TRY(query_image_info(c->image, q));
  OF_ASSIGN(const std::uint32_t guid_ptr, r.be32(kGuidPtrOffset));
  OF_ASSIGN(const Bytes guids, pointed_payload(c->image, guid_ptr, "GUID section"));
  if (guids.size() >= 8)
    q.base_guid = UidRange{(std::uint64_t{ByteReader::load_be32(guids.data())} << 32) |
                               ByteReader::load_be32(guids.data() + 4),
                           static_cast<std::uint32_t>(std::min<std::size_t>(guids.size() / 8, kGuidCount))};
  for (std::size_t i = 0; i + 8 <= guids.size() && i / 8 < kGuidCount; i += 8)
    q.uids.push_back((std::uint64_t{ByteReader::load_be32(guids.data() + i)} << 32) |
                     ByteReader::load_be32(guids.data() + i + 4));
  return q;
}

Result<VerifyReport> verify(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(const Layout layout, read_layout(data, offset));
  VerifyReport report;
  report.format = ImageFormat::Fs1;
  report.image_start = offset;
  report.layout = "FS1 failsafe image, sector size " + hex_string(std::uint64_t{1} << layout.log2_sector);
  report.sections.push_back(gph::verify_boot2(data.subspan(offset), kBoot2Offset, offset, "Invariant BOOT2"));
  for (const auto& c : layout.copies) {
    report.sections.push_back(pointer_sector_check(c));
    if (!c.ps_problem.empty()) report.problems.push_back(std::string(c.name) + " pointer sector: " + c.ps_problem);
    if (c.image.empty()) continue;
    gph::ChainWalk walk = walk_copy(c);
    for (auto& s : walk.checks) {
      s.name = std::string(c.name) + " " + s.name;
      s.start += offset;
      report.sections.push_back(std::move(s));
    }
    for (const auto& p : walk.problems) report.problems.push_back(std::string(c.name) + " image: " + p);
  }
  return report;
}

Result<std::string> dump_config(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(const Layout layout, read_layout(data, offset));
  const Copy* c = layout.active();
  if (!c) return make_error(ErrorCode::InvalidImage, "FS1: neither pointer sector is valid");
  const gph::ChainWalk walk = walk_copy(*c);
  const gph::WalkedSection* conf = walk.find(gph::kFwConf);
  if (!conf) return make_error(ErrorCode::NotFound, "FS1 image has no FW_CONF section");
  if (!conf->crc_ok) return make_error(ErrorCode::InvalidImage, "FW_CONF section has a wrong CRC");
  OF_ASSIGN_CTX(std::string ini, gph::inflate_config(c->image.subspan(conf->data, conf->data_size)),
                "dumping FS1 configuration");
  return ini;
}

}  // namespace openflint::fs1
