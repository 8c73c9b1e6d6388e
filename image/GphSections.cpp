// GphSections: walking and building the FS1/FS2 BOOT2 + GPH section chain and IMG_INFO.
#include "core/HexString.h"
#include "image/GphSections.h"

#include <algorithm>
#include <zlib.h>

#include <array>
#include <cstdio>

namespace openflint::gph {
namespace {

constexpr std::size_t kMaxSections = 4096;  // far above any real image; stops runaway chains

std::string crc_detail(std::uint32_t expected, std::uint32_t found) {
  return "expected " + hex_string(expected) + ", found " + hex_string(found);
}

// BOOT2: {?, N, N dwords, spare, crc}; returns the offset after it, or nullopt when broken.
std::optional<std::uint64_t> walk_boot2(const ByteReader& r, std::uint64_t at, std::uint64_t base,
                                        Crc16& image_crc, ChainWalk& walk) {
  SectionCheck check{base + at, 0, "BOOT2", SectionStatus::Invalid, {}};
  auto n = r.be32(at + 4);
  if (!n || *n < 4 || *n > kMaxBoot2Dwords) {
    check.detail = n ? "unexpected size " + hex_string(*n) : "size word at " + hex_string(base + at + 4) + " past end";
    walk.problems.push_back("BOOT2 at " + hex_string(base + at) + ": " + check.detail);
    walk.checks.push_back(check);
    return std::nullopt;
  }
  const std::uint64_t total = (std::uint64_t{*n} + 4) * 4;
  check.size = total;
  auto body = r.slice(at, total);
  if (!body) {
    check.detail = "truncated: image ends inside it";
    walk.problems.push_back("BOOT2 at " + hex_string(base + at) + ": " + check.detail);
    walk.checks.push_back(check);
    return std::nullopt;
  }
  Crc16 crc;
  crc.update(body->first(total - 4));
  image_crc.update(body->first(total - 4));
  const std::uint32_t stored = ByteReader::load_be32(body->data() + total - 4);
  image_crc.update_dword(stored);
  check.status = stored == crc.finish() ? SectionStatus::Ok : SectionStatus::WrongCrc;
  if (check.status != SectionStatus::Ok) check.detail = crc_detail(crc.finish(), stored);
  walk.checks.push_back(check);
  walk.end = at + total;
  return at + total;
}

// One GPH section at `at`; returns its `next` field, or nullopt when the walk must stop.
std::optional<std::uint32_t> walk_section(const ByteReader& r, std::uint64_t at, std::uint64_t base,
                                          Crc16& image_crc, ChainWalk& walk) {
  auto header = r.slice(at, kHeaderSize);
  if (!header) {
    walk.problems.push_back("section header at " + hex_string(base + at) + " is past the end");
    return std::nullopt;
  }
  const std::uint32_t type = ByteReader::load_be32(header->data());
  const std::uint32_t size_field = ByteReader::load_be32(header->data() + 4);
  const std::uint32_t next = ByteReader::load_be32(header->data() + 12);
  const std::uint64_t size =
      type == kEmt ? (std::uint64_t{size_field} + 3) / 4 * 4 : std::uint64_t{size_field} * 4;
  SectionCheck check{base + at, size + kHeaderSize + 4, section_name(type), SectionStatus::Invalid, {}};
  if (size > kMaxSectionSize) {
    check.detail = "size too big (" + hex_string(size) + ")";
  } else if (!r.contains(at, size + kHeaderSize + 4)) {
    check.detail = "truncated: image ends inside it";
  }
  if (!check.detail.empty()) {
    walk.problems.push_back(check.name + " at " + hex_string(base + at) + ": " + check.detail);
    walk.checks.push_back(check);
    return std::nullopt;
  }
  const Bytes body = r.bytes().subspan(at, kHeaderSize + size);
  Crc16 crc;
  crc.update(body);
  image_crc.update(body);
  image_crc.update_dword(crc.finish());
  const std::uint32_t stored = ByteReader::load_be32(body.data() + body.size());
  const bool blank_guids = type == kGuid && stored == 0xffff && size >= 8 &&
                           ByteReader::load_be32(body.data() + kHeaderSize) == 0xffffffff &&
                           ByteReader::load_be32(body.data() + kHeaderSize + 4) == 0xffffffff;
  if (blank_guids) {
    check.status = SectionStatus::CrcIgnored;
    check.detail = "blank crc (0xffff)";
  } else if (stored == crc.finish()) {
    check.status = SectionStatus::Ok;
  } else {
    check.status = SectionStatus::WrongCrc;
    check.detail = crc_detail(crc.finish(), stored);
  }
  walk.checks.push_back(check);
  walk.sections.push_back({type, at, at + kHeaderSize, size, check.status != SectionStatus::WrongCrc});
  walk.end = at + kHeaderSize + size + 4;
  return next;
}

}  // namespace

std::string section_name(std::uint32_t type) {
  static constexpr std::array<const char*, 13> kNames{
      "UNKNOWN (0 - Reserved)", "DDR", "Configuration", "Jump addresses", "EMT Service", "ROM",
      "GUID", "BOARD ID", "User Data", "FW Configuration", "Image Info", "DDRZ", "Hash File"};
  if (type >= 1 && type < kNames.size()) return kNames[type];
  return "UNKNOWN (" + std::to_string(type) + ")";
}

SectionCheck verify_boot2(Bytes image, std::uint64_t at, std::uint64_t print_base,
                          const std::string& name) {
  ChainWalk walk;
  Crc16 unused;
  walk_boot2(ByteReader(image), at, print_base, unused, walk);
  SectionCheck check = walk.checks.front();
  check.name = name;
  return check;
}

const WalkedSection* ChainWalk::find(std::uint32_t type) const {
  for (const auto& s : sections)
    if (s.type == type) return &s;
  return nullptr;
}

ChainWalk walk_chain(Bytes image, std::uint64_t boot2, std::uint64_t print_base,
                     Crc16 image_crc) {
  ChainWalk walk;
  const ByteReader r(image);
  auto next = walk_boot2(r, boot2, print_base, image_crc, walk);
  std::uint64_t at = next.value_or(0);
  bool first = true;
  while (next && at != 0 && at != 0xff000000) {
    if (walk.checks.size() > kMaxSections || at < walk.end) {
      walk.problems.push_back("section chain points back to " + hex_string(print_base + at));
      break;
    }
    // Like mstflint: an unknown type right after BOOT2 is a second boot stage (BOOT3).
    auto type = r.be32(at);
    if (first && type && (*type < kDdr || *type > kHashFile)) {
      next = walk_boot2(r, at, print_base, image_crc, walk);
      at = next.value_or(0);
      first = false;
      continue;
    }
    first = false;
    auto following = walk_section(r, at, print_base, image_crc, walk);
    if (!following) break;
    at = *following;
  }
  walk.image_crc = image_crc.finish();
  return walk;
}

void append_be32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  const std::size_t at = out.size();
  out.resize(at + 4);
  store_be32(out.data() + at, value);
}

std::uint32_t with_checksum_byte(std::uint32_t low24) {
  low24 &= 0xffffff;
  const std::uint8_t sum = static_cast<std::uint8_t>(low24 + (low24 >> 8) + (low24 >> 16));
  return (std::uint32_t{static_cast<std::uint8_t>(0x100 - sum)} << 24) | low24;
}

bool byte_sum_is_zero(std::uint32_t word) {
  return static_cast<std::uint8_t>(word + (word >> 8) + (word >> 16) + (word >> 24)) == 0;
}

void append_boot2(std::vector<std::uint8_t>& out, Bytes code) {
  const std::size_t start = out.size();
  append_be32(out, 0);
  append_be32(out, static_cast<std::uint32_t>(code.size() / 4));
  out.insert(out.end(), code.begin(), code.begin() + static_cast<std::ptrdiff_t>(code.size() / 4 * 4));
  append_be32(out, 0);
  append_be32(out, crc16(Bytes(out).subspan(start)));
}

std::vector<std::uint64_t> append_chain(std::vector<std::uint8_t>& out,
                                        const std::vector<GphSection>& sections) {
  std::vector<std::uint64_t> payloads;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const auto& s = sections[i];
    const std::size_t padded = (s.data.size() + 3) / 4 * 4;
    const std::size_t start = out.size();
    const std::uint64_t next = i + 1 < sections.size() ? start + kHeaderSize + padded + 4 : 0;
    append_be32(out, s.type);
    append_be32(out, static_cast<std::uint32_t>(s.type == kEmt ? s.data.size() : padded / 4));
    append_be32(out, s.param);
    append_be32(out, static_cast<std::uint32_t>(next));
    payloads.push_back(out.size());
    out.insert(out.end(), s.data.begin(), s.data.end());
    out.resize(start + kHeaderSize + padded, 0);
    append_be32(out, crc16(Bytes(out).subspan(start)));
  }
  return payloads;
}

Result<void> check_text(const std::string& value, std::size_t max, const char* what) {
  if (value.size() > max)
    return make_error(ErrorCode::InvalidArgument, std::string(what) + " is " +
                                                      std::to_string(value.size()) +
                                                      " bytes, at most " + std::to_string(max) + " allowed");
  if (value.find('\0') != std::string::npos)
    return make_error(ErrorCode::InvalidArgument, std::string(what) + " contains a nul byte");
  return {};
}

Result<void> check_sections(const std::vector<GphSection>& sections) {
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const auto& s = sections[i];
    const std::string what = "sections[" + std::to_string(i) + "]";
    if (s.type == 0 || s.type > kHashFile || s.type == kGuid || s.type == kImgInfo || s.type == kFwConf)
      return make_error(ErrorCode::InvalidArgument,
                        what + ": type " + std::to_string(s.type) +
                            " is not a user section type (GUID, IMG_INFO and FW_CONF are generated)");
    if (s.type != kEmt && s.data.size() % 4 != 0)
      return make_error(ErrorCode::InvalidArgument, what + ": data size is not a multiple of 4");
    if (s.data.size() > kMaxSectionSize)
      return make_error(ErrorCode::InvalidArgument, what + ": data larger than 0x400000 bytes");
  }
  return {};
}

Result<void> check_boot2(Bytes code, const char* what) {
  if (code.size() % 4 != 0 || code.size() < 16 || code.size() / 4 > kMaxBoot2Dwords)
    return make_error(ErrorCode::InvalidArgument,
                      std::string(what) + " must be a multiple of 4 bytes, 16 bytes to 4 MiB");
  return {};
}

}  // namespace openflint::gph
