// GphSections: the BOOT2 + general-section-header (GPH) chain and IMG_INFO tags of FS1/FS2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/ImageQuery.h"
#include "image/Crc16.h"
#include "image/Fs2ConfigArea.h"
#include "image/VerifyReport.h"

namespace openflint::gph {

// Section types (GPH.type). The writer generates GUID, IMG_INFO and FW_CONF itself.
enum SectionType : std::uint32_t {
  kDdr = 1, kCnf = 2, kJmp = 3, kEmt = 4, kRom = 5, kGuid = 6, kBoardId = 7, kUserData = 8,
  kFwConf = 9, kImgInfo = 10, kDdrz = 11, kHashFile = 12,
};
inline constexpr std::uint64_t kHeaderSize = 16;            // {type, size, param, next}
inline constexpr std::uint64_t kMaxSectionSize = 0x400000;  // mstflint MAX_SECTION_SIZE
inline constexpr std::uint32_t kMaxBoot2Dwords = 1048576;   // BOOT2 N must be in [4, 2^20]

// The name mstflint prints for a section type, e.g. "FW Configuration", "UNKNOWN (13)".
[[nodiscard]] std::string section_name(std::uint32_t type);

struct WalkedSection {
  std::uint32_t type = 0;
  std::uint64_t header = 0;     // offset of the GPH within the image
  std::uint64_t data = 0;       // offset of the payload
  std::uint64_t data_size = 0;  // payload bytes (EMT rounded up to dwords)
  bool crc_ok = false;
};

struct ChainWalk {
  std::vector<SectionCheck> checks;  // BOOT2 first, then every section reached
  std::vector<WalkedSection> sections;
  std::vector<std::string> problems;  // structural failures (unreadable header, bad size, ...)
  std::uint64_t end = 0;              // one past the last byte walked (mstflint lastImageAddr)
  std::uint16_t image_crc = 0;        // finished "full image" CRC (FS2 fw_id[15:0])
  [[nodiscard]] const WalkedSection* find(std::uint32_t type) const;
};

// Walks BOOT2 at `boot2` and the section chain of `image` (offsets relative to the image
// start; SectionCheck starts are reported as `print_base + offset`). `image_crc` arrives fed
// with whatever precedes BOOT2 (FS2: the header dwords). Never fails: what it cannot read
// becomes an Invalid check or a problem.
[[nodiscard]] ChainWalk walk_chain(Bytes image, std::uint64_t boot2, std::uint64_t print_base,
                                   Crc16 image_crc);

// Checks only a BOOT2 block (FS1 invariant sector); the check is named `name`.
[[nodiscard]] SectionCheck verify_boot2(Bytes image, std::uint64_t at, std::uint64_t print_base,
                                        const std::string& name);

// IMG_INFO: a TLV list of `id << 24 | size` tag words.
enum InfoTag : std::uint32_t {
  kTagFwVersion = 1, kTagBuildTime = 2, kTagDeviceType = 3, kTagPsid = 4, kTagVsd = 5,
  kTagProductVer = 7, kTagHwDevsId = 10, kTagMicVersion = 11, kTagEnd = 0xff,
};
inline constexpr std::size_t kPsidLen = 16;
inline constexpr std::size_t kVsdLen = 208;
inline constexpr std::size_t kProductVerLen = 16;

struct ImageInfo {
  std::optional<FwVersion> fw_version;
  std::optional<ReleaseDate> release_date;
  std::optional<std::uint16_t> device_id;
  std::optional<FwVersion> mic_version;
  std::string psid;
  std::string vsd;
  std::string product_version;
  std::vector<std::uint32_t> hw_ids;
  std::optional<Fs2ConfigArea> config_area;  // tag 19 (SwitchX FS2)
};
[[nodiscard]] Result<ImageInfo> parse_image_info(Bytes payload);
// The info section's fields into a query (FS1 and FS2): PSID and VSD only where the query has none
// yet (an FS1 pointer sector's come first).
void add_image_info(const ImageInfo& info, ImageQuery& q);
[[nodiscard]] std::vector<std::uint8_t> build_image_info(const ImageInfo& info);

// FW_CONF payload: one zlib stream, zero-padded to a dword.
[[nodiscard]] Result<std::string> inflate_config(Bytes payload);
[[nodiscard]] Result<std::vector<std::uint8_t>> deflate_config(const std::string& ini);

// Writer side: one section to emit and the chain builder.
struct GphSection {
  std::uint32_t type = kDdr;
  std::vector<std::uint8_t> data;  // EMT may be any length (padded); others a dword multiple
  std::uint32_t param = 0;
};
// BOOT2 = {0, N, code (N dwords), 0, crc}; `code` is a dword multiple of at least 16 bytes.
void append_boot2(std::vector<std::uint8_t>& out, Bytes code);
// Appends the sections at out.size() (the image starts at out[0]); `next` chains them, the
// last has next = 0. Returns each section's payload offset.
std::vector<std::uint64_t> append_chain(std::vector<std::uint8_t>& out,
                                        const std::vector<GphSection>& sections);
// Input checks shared by the writers; errors are InvalidArgument naming `what`.
[[nodiscard]] Result<void> check_text(const std::string& value, std::size_t max, const char* what);
[[nodiscard]] Result<void> check_sections(const std::vector<GphSection>& sections);
[[nodiscard]] Result<void> check_boot2(Bytes code, const char* what);
// The image-info texts every FS1/FS2 spec carries (psid, vsd, product_version) fit their fields.
template <class Spec>
[[nodiscard]] Result<void> check_info_texts(const Spec& spec) {
  OF_TRY(check_text(spec.psid, kPsidLen, "psid"));
  OF_TRY(check_text(spec.vsd, kVsdLen, "vsd"));
  return check_text(spec.product_version, kProductVerLen, "product_version");
}

void append_be32(std::vector<std::uint8_t>& out, std::uint32_t value);
// Top byte chosen so the four bytes sum to 0 mod 256 (FS word, info pointer).
[[nodiscard]] std::uint32_t with_checksum_byte(std::uint32_t low24);
[[nodiscard]] bool byte_sum_is_zero(std::uint32_t word);

}  // namespace openflint::gph
