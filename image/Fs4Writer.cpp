// Fs4Writer: the FS4 image layout (as image/Fs4Image.cpp reads it), sections placed 4 KiB apart.
#include "image/Fs4Writer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "core/ByteReader.h"
#include "image/Crc16.h"
#include "image/DeviceDataSections.h"
#include "image/GphSections.h"
#include "image/SectionType.h"
#include "image/Toc.h"

namespace openflint {
namespace {

namespace st = section_type;

constexpr std::array<std::uint32_t, 4> kFs4Magic{0x4D544657, 0xABCDEF00, 0xFADE1234, 0x5678DEAD};
constexpr std::array<std::uint32_t, 3> kFs4TocTail{0x04081516, 0x2342cafa, 0xbacafe00};
constexpr std::uint64_t kPointers = 0x18;  // 16 entries {pointer, crc16_hw of its first 6 bytes}
constexpr std::uint64_t kTools = 0x500;    // tools area, 0x40 bytes, CRC in its last dword
constexpr std::uint64_t kFs4Boot2 = 0x1000;
constexpr std::uint64_t kFs4Sector = 0x1000;
constexpr std::uint64_t kDeviceDataSpan = 0x40000;  // before the DTOC's sector
constexpr std::uint64_t kTocReserve = 0x1000;        // a TOC header, its entries and the end block
// Sizes: mstflint's cx4fw_image_signature_256/512 (0x140, 0x240) and 8 cx4fw_public_key_2048/4096
// slots (0x120, 0x220 each; a real Spectrum-2 image's PUBLIC_KEYS_2048 is 0x900).
constexpr std::array<std::pair<std::uint8_t, std::size_t>, 4> kSignatureSections{
    {{st::kImageSignature256, 0x140}, {st::kPublicKeys2048, 8 * 0x120},
     {st::kImageSignature512, 0x240}, {st::kPublicKeys4096, 8 * 0x220}}};
constexpr int kBoot2Pointer = 1, kTocPointer = 2, kToolsPointer = 3, kSecurityPointer = 13;

std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

Result<void> check_fs4_spec(const Fs4ImageSpec& spec) {
  if (spec.flash_size % kFs4Sector != 0 || spec.flash_size < 2 * kDeviceDataSpan || spec.flash_size > (1ull << 31))
    return make_error(ErrorCode::InvalidArgument, "flash_size: must be a 4 KiB multiple from 512 KiB to 2 GiB");
  return check_image_spec_fields(spec, 0xfffffc);
}

// One TOC entry and its section. `crc`: 0 in the entry, 1 none, 2 in the section's last dword.
struct Fs4Entry {
  std::uint8_t type = 0;
  std::vector<std::uint8_t> data;
  std::uint8_t crc = 0;
  std::uint64_t address = 0;
};

void seal_block(std::vector<std::uint8_t>& img, std::uint64_t at) {
  store_be32(&img[at + 0x1C], crc16(Bytes(&img[at], 0x1C)));
}

void put_toc_header(std::vector<std::uint8_t>& img, std::uint64_t at, std::uint32_t signature) {
  store_be32(&img[at], signature);
  for (std::size_t i = 0; i < kFs4TocTail.size(); ++i) store_be32(&img[at + 4 + 4 * i], kFs4TocTail[i]);
  std::fill_n(img.begin() + static_cast<std::ptrdiff_t>(at + 0x10), 0x10, 0);
  store_be32(&img[at + 0x10], 1);
  seal_block(img, at);
}

// Writes the entries of one TOC at `toc` and their sections; the entry array ends with an
// all-ones block.
void put_toc(std::vector<std::uint8_t>& img, std::uint64_t toc, std::uint32_t signature,
             std::vector<Fs4Entry>& entries, Fs4Layout* layout) {
  put_toc_header(img, toc, signature);
  std::uint64_t at = toc + kTocHeaderSize;
  for (auto& e : entries) {
    if (e.crc == 2 && e.data.size() >= 4)
      store_be32(&e.data[e.data.size() - 4], crc16(Bytes(e.data.data(), e.data.size() - 4)));
    std::copy(e.data.begin(), e.data.end(), img.begin() + static_cast<std::ptrdiff_t>(e.address));
    std::fill_n(img.begin() + static_cast<std::ptrdiff_t>(at), kTocEntrySize, 0);
    store_be32(&img[at], std::uint32_t{e.type} << 24 | static_cast<std::uint32_t>(e.data.size()));
    store_be32(&img[at + 0x14], static_cast<std::uint32_t>(e.address));
    store_be32(&img[at + 0x18], std::uint32_t{e.crc} << 16 | (e.crc == 0 ? crc16(e.data) : 0u));
    seal_block(img, at);
    if (layout != nullptr) layout->sections.push_back({e.type, e.address, e.data.size()});
    at += kTocEntrySize;
  }
  std::fill_n(img.begin() + static_cast<std::ptrdiff_t>(at), kTocEntrySize, 0xff);
}

// The tools area's log2_img_slot_size is half the flash (mstflint puts the other copy there:
// 16 MiB slots on a 32 MiB flash, 8 MiB on ConnectX-5's 16 MiB); bin version 1.0.
void put_pointers(std::vector<std::uint8_t>& img, std::uint64_t itoc, std::uint32_t security_version,
                  std::uint64_t flash_size) {
  std::array<std::uint32_t, 16> pointers{};
  pointers.fill(0xFFFFFFFFu);  // unused slots stay all-ones, as real images leave them
  pointers[kBoot2Pointer] = kFs4Boot2;
  pointers[kTocPointer] = static_cast<std::uint32_t>(itoc);
  pointers[kToolsPointer] = kTools;
  pointers[kSecurityPointer] = security_version;
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    if (pointers[i] == 0xFFFFFFFFu) continue;
    std::uint8_t* e = &img[kPointers + 8 * i];
    store_be32(e, pointers[i]);
    store_be32(e + 4, 0);
    store_be32(e + 4, crc16_hw(Bytes(e, 6)));
  }
  std::fill_n(img.begin() + kTools, 0x40, 0);
  const auto log2_slot = static_cast<std::uint32_t>(std::bit_width(flash_size) - 2);
  store_be32(&img[kTools + 4], log2_slot << 16 | 0x0100);  // slot size, bin_ver_major 1, minor 0
  store_be32(&img[kTools + 0x3C], crc16(Bytes(&img[kTools], 0x3C)));
}

}  // namespace

Result<std::vector<std::uint8_t>> write_fs4_image(const Fs4ImageSpec& spec, Fs4Layout* layout) {
  OF_TRY(check_fs4_spec(spec));
  static constexpr std::array<std::uint8_t, 16> kFs4DefaultBoot2{'o', 'p', 'e', 'n', 'f', 'l', 'i', 'n',
                                                                 't', '-', 'f', 's', '4', 'b', 't', 0};
  std::vector<std::uint8_t> boot2;
  gph::append_boot2(boot2, spec.boot2_code.empty() ? Bytes(kFs4DefaultBoot2) : Bytes(spec.boot2_code));
  const std::uint64_t itoc = round_up(kFs4Boot2 + boot2.size(), kFs4Sector);
  const std::uint64_t dtoc = spec.flash_size - kFs4Sector;
  const std::uint64_t device_data = dtoc - kDeviceDataSpan;

  std::vector<Fs4Entry> code;
  std::uint64_t next = itoc + kTocReserve;
  const auto place = [&](std::uint8_t type, std::vector<std::uint8_t> data) {
    code.push_back({type, std::move(data), 0, next});
    next = round_up(next + code.back().data.size(), kFs4Sector);
  };
  for (const auto& s : spec.sections) place(s.type, s.data);
  place(st::kImageInfo, build_fs3_image_info(spec));
  // The signature sections, zero-filled (unsigned) as `flint sign` and mstflint's `sign` expect to
  // find them: IMAGE_SIGNATURE_256 and PUBLIC_KEYS_2048 as in real FS4 images, and the 4096-bit
  // pair so either key size can sign (image/Fs4Signature.h). mstflint also counts an image with no
  // signature or no public-keys section as an old format (security mode none).
  for (const auto& [type, size] : kSignatureSections) place(type, std::vector<std::uint8_t>(size, 0));
  if (!spec.ini.empty()) {
    OF_ASSIGN(auto packed, gph::deflate_config(spec.ini));
    place(st::kDbgFwIni, std::move(packed));
  }
  if (next > device_data)
    return make_error(ErrorCode::InvalidArgument, "sections: the image needs " + std::to_string(next) +
                                                      " bytes before its device data, more than flash_size allows");
  if ((kTocReserve - kTocHeaderSize) / kTocEntrySize < code.size() + 1)
    return make_error(ErrorCode::InvalidArgument, "sections: too many for the ITOC");

  const DeviceDataIdentity identity{spec.psid, spec.prs_name, spec.base_guid, spec.guid_count, spec.base_mac,
                                    spec.mac_count};
  // NV_DATA (no CRC), DEV_INFO (CRC in its last dword) and its blank second copy, MFG_INFO, VPD_R0.
  std::vector<Fs4Entry> data{{st::kNvData1, std::vector<std::uint8_t>(0x1000, 0xff), 1, 0},
                             {st::kDevInfo, build_dev_info(identity), 2, 0},
                             {st::kDevInfo, std::vector<std::uint8_t>(0x200, 0), 2, 0},
                             {st::kMfgInfo, build_mfg_info(identity), 0, 0},
                             {st::kVpdR0, {}, 0, 0}};
  std::uint64_t at = device_data;
  for (auto& e : data) {
    e.address = at;
    at = round_up(at + e.data.size() + (e.data.empty() ? 1 : 0), kFs4Sector);
  }

  std::vector<std::uint8_t> img(spec.flash_size, 0xff);
  for (std::size_t i = 0; i < kFs4Magic.size(); ++i) store_be32(&img[4 * i], kFs4Magic[i]);
  store_be32(&img[0x10], 0x01000100);
  put_pointers(img, itoc, spec.security_version, spec.flash_size);
  std::copy(boot2.begin(), boot2.end(), img.begin() + kFs4Boot2);
  if (layout != nullptr) *layout = Fs4Layout{kFs4Boot2, itoc, dtoc, {}};
  put_toc(img, itoc, kItocSignature, code, layout);
  put_toc(img, dtoc, kDtocSignature, data, layout);
  return img;
}

}  // namespace openflint
