// GphPatch: sg / sv on FS1 and FS2 images — GUID section, IMG_INFO VSD tag, pointer sectors, CRCs.
#include <algorithm>
#include <array>
#include <cstdio>
#include <span>
#include <vector>

#include "core/HexString.h"
#include "image/FormatPatch.h"
#include "image/Fs1PointerSector.h"
#include "image/Fs2Header.h"
#include "image/GphSections.h"

namespace openflint::patch {
namespace {

bool walk_is_clean(const gph::ChainWalk& walk) {
  if (!walk.problems.empty()) return false;
  return std::none_of(walk.checks.begin(), walk.checks.end(), [](const SectionCheck& c) {
    return c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid;
  });
}

std::string first_fault(const gph::ChainWalk& walk) {
  if (!walk.problems.empty()) return walk.problems.front();
  for (const auto& c : walk.checks)
    if (c.status == SectionStatus::WrongCrc || c.status == SectionStatus::Invalid)
      return c.name + " at " + hex_string(c.start) + ": " + std::string(to_string(c.status)) + " " + c.detail;
  return "";
}

// Recomputes the CRC dword after section `s` of the image starting at data[base].
void reseal(std::vector<std::uint8_t>& data, std::uint64_t base, const gph::WalkedSection& s) {
  const std::uint64_t begin = base + s.header;
  const std::uint64_t end = base + s.data + s.data_size;
  store_be32(data.data() + end, crc16(Bytes(data).subspan(begin, end - begin)));
}

void put_uid(std::vector<std::uint8_t>& data, std::uint64_t at, std::uint64_t uid) {
  store_be32(data.data() + at, static_cast<std::uint32_t>(uid >> 32));
  store_be32(data.data() + at + 4, static_cast<std::uint32_t>(uid));
}

// Writes `values` over the first entries of the GUID section payload and reseals it.
Result<void> patch_entries(std::vector<std::uint8_t>& data, std::uint64_t base, const gph::ChainWalk& walk,
                           std::span<const std::uint64_t> values) {
  const gph::WalkedSection* g = walk.find(gph::kGuid);
  if (g == nullptr) return make_error(ErrorCode::InvalidImage, "image has no GUID section");
  if (g->data_size / 8 < values.size())
    return make_error(ErrorCode::InvalidImage, "GUID section at " + hex_string(base + g->header) + " holds " +
                                                   std::to_string(g->data_size / 8) + " entries, expected at least " +
                                                   std::to_string(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) put_uid(data, base + g->data + 8 * i, values[i]);
  reseal(data, base, *g);
  return {};
}

// The GUIDs (and MACs after them, FS2) counting up from the settings' bases; the stored MACs
// stay when no base MAC is given.
Result<void> patch_guid_section(std::vector<std::uint8_t>& data, std::uint64_t base, const gph::ChainWalk& walk,
                                const GuidSettings& s, std::size_t guid_count, std::size_t mac_count) {
  const gph::WalkedSection* g = walk.find(gph::kGuid);
  if (g == nullptr) return make_error(ErrorCode::InvalidImage, "image has no GUID section");
  if (s.base_mac && g->data_size / 8 >= guid_count && g->data_size / 8 < guid_count + mac_count)
    return make_error(ErrorCode::NotSupported, "GUID section at " + hex_string(base + g->header) + " holds no MACs");
  std::vector<std::uint64_t> values;
  for (std::size_t i = 0; i < guid_count; ++i) values.push_back(s.base_guid + i);
  if (s.base_mac)
    for (std::size_t i = 0; i < mac_count; ++i) values.push_back(*s.base_mac + i);
  return patch_entries(data, base, walk, values);
}

// Overwrites the value of the IMG_INFO VSD tag (zero padded) and reseals the section.
Result<void> patch_info_vsd(std::vector<std::uint8_t>& data, std::uint64_t base, const gph::ChainWalk& walk,
                            const std::string& vsd) {
  const gph::WalkedSection* info = walk.find(gph::kImgInfo);
  if (info == nullptr) return make_error(ErrorCode::InvalidImage, "image has no IMG_INFO section");
  const Bytes payload = Bytes(data).subspan(base + info->data, info->data_size);
  for (std::uint64_t at = 0; at + 4 <= payload.size();) {
    const std::uint32_t word = ByteReader::load_be32(payload.data() + at);
    const std::uint32_t id = word >> 24;
    const std::uint64_t size = word & 0xffffff;
    if (id == gph::kTagEnd || at + 4 + size > payload.size()) break;
    if (id == gph::kTagVsd) {
      if (vsd.size() > size)
        return make_error(ErrorCode::InvalidArgument, "VSD is " + std::to_string(vsd.size()) +
                                                          " bytes, the image's VSD tag holds at most " +
                                                          std::to_string(size));
      std::uint8_t* value = data.data() + base + info->data + at + 4;
      std::fill_n(value, size, 0);
      std::copy(vsd.begin(), vsd.end(), value);
      reseal(data, base, *info);
      return {};
    }
    at += 4 + (size + 3) / 4 * 4;
  }
  return make_error(ErrorCode::NotSupported, "IMG_INFO section at " + hex_string(base + info->header) + " has no VSD tag");
}

// ---- FS2 ----

gph::ChainWalk fs2_walk(Bytes image) {
  std::array<std::uint8_t, fs2::kBoot2Offset> head{};
  std::copy_n(image.begin(), head.size(), head.begin());
  head[fs2::kFwIdOffset + 2] = 0xff;  // the image CRC is computed with its own field = 0xffff
  head[fs2::kFwIdOffset + 3] = 0xff;
  Crc16 crc;
  crc.update(head);
  return gph::walk_chain(image, fs2::kBoot2Offset, 0, crc);
}

struct Fs2Target {
  gph::ChainWalk walk;
  bool image_crc_valid = false;  // fw_id[15:0] held the right whole-image CRC before the patch
};

Result<Fs2Target> fs2_open(Bytes data, std::uint64_t offset) {
  const Bytes image = data.subspan(offset);
  OF_ASSIGN(const fs2::Header h, fs2::read_header(image));
  const std::uint64_t chunk = std::uint64_t{1} << h.log2_chunk;
  if (h.failsafe && (offset != 0 || fs2::has_magic(data, chunk)))
    return make_error(ErrorCode::NotSupported,
                      "FS2 striped flash dump (two copies in alternating chunks): patch a contiguous image file");
  Fs2Target t;
  t.walk = fs2_walk(image);
  if (!walk_is_clean(t.walk))
    return make_error(ErrorCode::InvalidImage, "FS2 image does not verify, not patching it: " + first_fault(t.walk));
  t.image_crc_valid = (h.fw_id & 0xffff) == t.walk.image_crc;
  return t;
}

void fs2_finish(std::vector<std::uint8_t>& data, std::uint64_t offset, const Fs2Target& t) {
  if (!t.image_crc_valid) return;  // mstflint checks it only when valid images carry it
  const gph::ChainWalk after = fs2_walk(Bytes(data).subspan(offset));
  std::uint8_t* fw_id = data.data() + offset + fs2::kFwIdOffset;
  store_be32(fw_id, (ByteReader::load_be32(fw_id) & 0xffff0000u) | after.image_crc);
}

// ---- FS1 ----

// Calls `patch` for each copy whose pointer sector is signed and CRC-correct and whose chain
// verifies; at least one copy must be patched.
template <typename F>
Result<void> fs1_each_copy(std::vector<std::uint8_t>& data, std::uint64_t offset, F patch) {
  OF_ASSIGN(const unsigned log2, fs1::read_log2_sector_size(data, offset));
  const std::uint64_t sector = std::uint64_t{1} << log2;
  int patched = 0;
  std::string why;
  for (int i = 0; i < 2; ++i) {
    const std::uint64_t ps_at = offset + sector * (i + 1);
    auto ps = fs1::read_pointer_sector(data, ps_at);
    if (!ps || !ps->signed_ok() || !ps->crc_ok() || offset + ps->fi_addr >= data.size()) {
      why = "pointer sector at " + hex_string(ps_at) + " is not valid";
      continue;
    }
    const std::uint64_t base = offset + ps->fi_addr;
    const gph::ChainWalk walk = gph::walk_chain(Bytes(data).subspan(base), fs1::kBoot2Offset, 0, Crc16{});
    if (!walk_is_clean(walk)) {
      why = "copy at " + hex_string(base) + " does not verify: " + first_fault(walk);
      continue;
    }
    OF_TRY(patch(base, walk, ps_at));
    ++patched;
  }
  if (patched == 0) return make_error(ErrorCode::InvalidImage, "FS1 image: no copy to patch (" + why + ")");
  return {};
}

}  // namespace

Result<void> fs2_set_guids(std::vector<std::uint8_t>& data, std::uint64_t offset, const GuidSettings& s) {
  OF_ASSIGN(const Fs2Target t, fs2_open(data, offset));
  OF_TRY(patch_guid_section(data, offset, t.walk, s, fs2::kGuidCount, fs2::kMacCount));
  fs2_finish(data, offset, t);
  return {};
}

Result<void> fs2_set_vsd(std::vector<std::uint8_t>& data, std::uint64_t offset, const std::string& vsd) {
  OF_ASSIGN(const Fs2Target t, fs2_open(data, offset));
  OF_TRY(patch_info_vsd(data, offset, t.walk, vsd));
  fs2_finish(data, offset, t);
  return {};
}

Result<void> fs2_set_uids(std::vector<std::uint8_t>& data, std::uint64_t offset, std::span<const std::uint64_t> uids) {
  OF_ASSIGN(const Fs2Target t, fs2_open(data, offset));
  OF_TRY(patch_entries(data, offset, t.walk, uids));
  fs2_finish(data, offset, t);
  return {};
}

Result<void> fs1_set_uids(std::vector<std::uint8_t>& data, std::uint64_t offset, std::span<const std::uint64_t> uids) {
  return fs1_each_copy(data, offset, [&](std::uint64_t base, const gph::ChainWalk& walk, std::uint64_t) -> Result<void> {
    return patch_entries(data, base, walk, uids);
  });
}

Result<void> fs1_set_guids(std::vector<std::uint8_t>& data, std::uint64_t offset, const GuidSettings& s) {
  if (s.base_mac) return make_error(ErrorCode::NotSupported, "FS1 (InfiniHost) images carry no MACs");
  return fs1_each_copy(data, offset, [&](std::uint64_t base, const gph::ChainWalk& walk, std::uint64_t) -> Result<void> {
    return patch_guid_section(data, base, walk, s, fs1::kGuidCount, 0);
  });
}

Result<void> fs1_set_vsd(std::vector<std::uint8_t>& data, std::uint64_t offset, const std::string& vsd) {
  return fs1_each_copy(data, offset, [&](std::uint64_t base, const gph::ChainWalk& walk, std::uint64_t ps_at) -> Result<void> {
    OF_TRY(patch_info_vsd(data, base, walk, vsd));
    // The pointer sector keeps the VSD too, each dword byte-reversed, under its own CRC.
    constexpr std::size_t kLen = fs1::kPsPsidOffset - fs1::kPsVsdOffset;
    std::array<std::uint8_t, kLen> field{};
    std::copy_n(vsd.begin(), std::min(vsd.size(), kLen), field.begin());
    for (std::size_t i = 0; i < kLen; i += 4) std::reverse(field.begin() + i, field.begin() + i + 4);
    std::copy(field.begin(), field.end(), data.begin() + static_cast<std::ptrdiff_t>(ps_at + fs1::kPsVsdOffset));
    store_be32(data.data() + ps_at + fs1::kPsCrcOffset, crc16(Bytes(data).subspan(ps_at, fs1::kPsCrcOffset)));
    return {};
  });
}

}  // namespace openflint::patch
