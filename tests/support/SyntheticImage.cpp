// SyntheticImage: builders for FS3/FS4 test images, CRCs computed with image/Crc16.
#include "tests/support/SyntheticImage.h"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>

#include "core/ByteReader.h"
#include "image/Crc16.h"
#include "image/SectionType.h"

namespace openflint::test {
namespace {

namespace st = section_type;

void put_string(std::vector<std::uint8_t>& buf, std::size_t at, const std::string& s) {
  std::copy(s.begin(), s.end(), buf.begin() + static_cast<std::ptrdiff_t>(at));
}

std::vector<std::uint8_t> pattern(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> v(size);
  std::uint32_t x = seed * 2654435761u + 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::uint8_t>(x);
  }
  return v;
}

std::vector<std::uint8_t> compressed_ini(const std::string& text) {
  uLongf size = compressBound(static_cast<uLong>(text.size()));
  std::vector<std::uint8_t> out(size);
  if (compress(out.data(), &size, reinterpret_cast<const Bytef*>(text.data()),
               static_cast<uLong>(text.size())) != Z_OK)
    throw std::runtime_error("compress failed");
  out.resize((size + 3) / 4 * 4, 0);  // dword aligned; padding after the stream end
  return out;
}

std::vector<std::uint8_t> dev_info(bool signed_copy) {
  std::vector<std::uint8_t> v(0x200, 0);
  if (signed_copy) {
    store_be32(&v[0], 0x6d446576);
    store_be32(&v[4], 0x496e666f);
    store_be32(&v[8], 0x2342cafa);
    store_be32(&v[12], 0xbacafe00);
  }
  store_be32(&v[0x10], 0x00000200);
  store_be32(&v[0x20], 0x00000108);
  store_be32(&v[0x30], 0x00000108);
  return v;
}

std::vector<std::uint8_t> mfg_info(const std::string& psid) {
  std::vector<std::uint8_t> v(0x140, 0);
  put_string(v, 0, psid);
  return v;
}

void write_boot2(std::vector<std::uint8_t>& img, std::uint64_t at) {
  const std::uint32_t n = 8;  // payload dwords
  store_be32(&img[at], 0x12345678);
  store_be32(&img[at + 4], n);
  for (std::uint32_t i = 0; i < n; ++i) store_be32(&img[at + 8 + 4 * i], 0xB0070000 + i);
  const std::uint64_t total = (n + 4) * 4;
  store_be32(&img[at + total - 4], crc16(Bytes(&img[at], total - 4)));
}

// Writes a TOC header of `signature` at `at`.
void write_toc_header(std::vector<std::uint8_t>& img, std::uint64_t at, std::uint32_t signature) {
  store_be32(&img[at], signature);
  store_be32(&img[at + 4], 0x04081516);
  store_be32(&img[at + 8], 0x2342cafa);
  store_be32(&img[at + 12], 0xbacafe00);
  store_be32(&img[at + 16], 1);
  reseal_toc_block(img, at);
}

struct Placed {
  const SyntheticSection* section;
  std::uint64_t address;  // absolute offset in the image
  std::uint32_t stored_addr;
};

// Copies the section data and writes its TOC entry (type, size, address, CRC field).
void write_entry(std::vector<std::uint8_t>& img, std::uint64_t entry_at, const Placed& p,
                 bool fs4) {
  const SyntheticSection& s = *p.section;
  std::copy(s.data.begin(), s.data.end(), img.begin() + static_cast<std::ptrdiff_t>(p.address));
  if (fs4 && s.crc_field == 2 && s.data.size() >= 4) {
    const std::uint64_t last = p.address + s.data.size() - 4;
    store_be32(&img[last], crc16(Bytes(&img[p.address], s.data.size() - 4)));
  }
  std::fill_n(img.begin() + static_cast<std::ptrdiff_t>(entry_at), 0x20, 0);
  store_be32(&img[entry_at], (std::uint32_t{s.type} << 24) | static_cast<std::uint32_t>(s.data.size()));
  store_be32(&img[entry_at + 0x14], p.stored_addr);
  std::uint32_t d6 = std::uint32_t{s.crc_field} << 16;
  if (!fs4 && s.device_data) d6 |= 1u << 17;
  if (s.crc_field == 0) d6 |= crc16(Bytes(&img[p.address], s.data.size()));
  store_be32(&img[entry_at + 0x18], d6);
  reseal_toc_block(img, entry_at);
}

void end_entries(std::vector<std::uint8_t>& img, std::uint64_t at) {
  std::fill(img.begin() + static_cast<std::ptrdiff_t>(at), img.begin() + static_cast<std::ptrdiff_t>(at + 0x20), 0xFF);
}

std::uint64_t align(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::vector<std::uint8_t> make_image_info(const SyntheticSpec& spec) {
  std::vector<std::uint8_t> v(0x400, 0);
  store_be32(&v[0], spec.image_info_layout);
  store_be32(&v[0x04], std::uint32_t{spec.fw_major} << 16);
  store_be32(&v[0x08], (std::uint32_t{spec.fw_minor} << 16) | spec.fw_subminor);
  store_be32(&v[0x10], spec.release_bcd);
  store_be32(&v[0x1C], 0x1234'15b3);  // device 0x1234, vendor 0x15b3
  put_string(v, 0x24, spec.psid);
  store_be32(&v[0x118], spec.hw_id);
  put_string(v, 0x1D0, spec.description);
  store_be32(&v[0x314], std::uint32_t{spec.issu} << 20);
  put_string(v, 0x340, spec.name);
  return v;
}

void reseal_toc_block(std::vector<std::uint8_t>& image, std::uint64_t offset) {
  store_be32(&image[offset + 0x1C], crc16(Bytes(&image[offset], 0x1C)));
}

SyntheticLayout build_fs3(const SyntheticSpec& spec) {
  constexpr std::uint64_t kSize = 0x40000;
  SyntheticLayout out;
  auto& img = out.bytes;
  img.assign(kSize, 0xFF);
  const std::uint32_t magic[4] = {0x4D544657, 0x8CDFD000, 0xDEAD9270, 0x4154BEEF};
  for (int i = 0; i < 4; ++i) store_be32(&img[4 * i], magic[i]);
  store_be32(&img[0x24], 0x03150000);
  out.boot2 = 0x38;
  write_boot2(img, 0x38);
  out.itoc = 0x1000 * (1 + spec.itoc_gap_sectors);
  write_toc_header(img, out.itoc, 0x49544f43);

  std::vector<SyntheticSection> sections = {
      {st::kImageInfo, make_image_info(spec)}, {st::kMainCode, pattern(0x3000, 1)}};
  if (spec.with_ini) sections.push_back({st::kDbgFwIni, compressed_ini(spec.ini)});
  sections.push_back({st::kNvData1, pattern(0x1000, 2), 1, true});
  sections.push_back({st::kDevInfo, dev_info(true), 0, true});
  sections.push_back({st::kMfgInfo, mfg_info(spec.psid), 0, true});
  sections.push_back({st::kVpdR0, {}, 0, true});
  for (const auto& e : spec.extra) sections.push_back(e);

  std::uint64_t next_rel = out.itoc + 0x1000, next_abs = kSize - 0x10000;
  std::uint64_t entry = out.itoc + 0x20;
  for (const auto& s : sections) {
    Placed p{&s, 0, 0};
    if (s.device_data) {
      p.address = next_abs;
      p.stored_addr = static_cast<std::uint32_t>(next_abs);
      next_abs = align(next_abs + s.data.size(), 0x1000);
    } else {
      p.address = next_rel;
      p.stored_addr = 0x80000000u | static_cast<std::uint32_t>(next_rel);
      next_rel = align(next_rel + s.data.size(), 0x100);
    }
    if (s.type == st::kMainCode) out.main_code = p.address, out.main_code_size = s.data.size();
    write_entry(img, entry, p, false);
    entry += 0x20;
  }
  end_entries(img, entry);
  return out;
}

SyntheticLayout build_fs3_mcc(SyntheticSpec spec) {
  spec.image_info_layout |= 1u << 8;
  spec.extra.push_back({0xa0, std::vector<std::uint8_t>(0x120, 0)});
  spec.extra.push_back({0xa1, std::vector<std::uint8_t>(0x200, 0)});
  return build_fs3(spec);
}

SyntheticLayout build_fs4(const SyntheticSpec& spec) {
  constexpr std::uint64_t kSize = 0x80000;
  SyntheticLayout out;
  auto& img = out.bytes;
  img.assign(kSize, 0xFF);
  const std::uint32_t magic[4] = {0x4D544657, 0xABCDEF00, 0xFADE1234, 0x5678DEAD};
  for (int i = 0; i < 4; ++i) store_be32(&img[4 * i], magic[i]);
  store_be32(&img[0x10], 0x01000100);
  // HW pointers: boot_record unused (0xFFFFFFFF), boot2, toc, tools, security version.
  std::uint32_t ptrs[16] = {0xFFFFFFFFu, 0x1000, 0x4000, 0x500};
  ptrs[13] = spec.security_version;
  for (int i = 0; i < 16; ++i) {
    std::uint8_t* e = &img[0x18 + 8 * i];
    if (ptrs[i] == 0xFFFFFFFFu) continue;  // stays all-ones, as real images leave it
    store_be32(e, ptrs[i]);
    store_be32(e + 4, 0);
    store_be32(e + 4, crc16_hw(Bytes(e, 6)));
  }
  std::fill(img.begin() + 0x500, img.begin() + 0x540, 0);
  store_be32(&img[0x504], 0x00180100);
  store_be32(&img[0x53C], crc16(Bytes(&img[0x500], 0x3C)));
  out.boot2 = 0x1000;
  write_boot2(img, 0x1000);
  out.itoc = 0x4000;
  write_toc_header(img, out.itoc, 0x49544f43);
  out.dtoc = kSize - 0x1000;
  write_toc_header(img, out.dtoc, 0x44544f43);

  std::vector<SyntheticSection> sections = {{st::kResetInfo, pattern(0x100, 3)},
                                            {st::kMainCode, pattern(0x3000, 4)},
                                            {st::kImageInfo, make_image_info(spec)}};
  if (spec.with_ini) sections.push_back({st::kDbgFwIni, compressed_ini(spec.ini)});
  sections.push_back({st::kNvData1, pattern(0x1000, 5), 1, true});
  sections.push_back({st::kDevInfo, dev_info(true), 2, true});
  sections.push_back({st::kDevInfo, dev_info(false), 2, true});
  sections.push_back({st::kMfgInfo, mfg_info(spec.psid), 0, true});
  sections.push_back({st::kVpdR0, {}, 0, true});
  for (const auto& e : spec.extra) sections.push_back(e);

  std::uint64_t next_rel = 0x5000, next_abs = kSize - 0x40000;
  std::uint64_t itoc_entry = out.itoc + 0x20, dtoc_entry = out.dtoc + 0x20;
  for (const auto& s : sections) {
    Placed p{&s, 0, 0};
    std::uint64_t& next = s.device_data ? next_abs : next_rel;
    p.address = next;
    p.stored_addr = static_cast<std::uint32_t>(next);
    next = s.device_data ? align(next + s.data.size(), 0x1000) : next + s.data.size();
    if (s.type == st::kMainCode) out.main_code = p.address, out.main_code_size = s.data.size();
    std::uint64_t& entry = s.device_data ? dtoc_entry : itoc_entry;
    write_entry(img, entry, p, true);
    entry += 0x20;
  }
  end_entries(img, itoc_entry);
  end_entries(img, dtoc_entry);
  return out;
}

}  // namespace openflint::test
