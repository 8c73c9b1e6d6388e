// SyntheticImage: small valid FS3/FS4 images (few sections, correct CRCs) for unit tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace openflint::test {

struct SyntheticSection {
  std::uint8_t type = 0;
  std::vector<std::uint8_t> data;  // size must be a multiple of 4
  std::uint8_t crc_field = 0;      // FS4: 0 in entry, 1 none, 2 last dword; FS3: bit0 no_crc
  bool device_data = false;        // FS3: absolute address near the end, device_data bit set
                                   // FS4: placed in the DTOC
};

struct SyntheticSpec {
  std::uint16_t fw_major = 13, fw_minor = 2000, fw_subminor = 2162;
  std::uint32_t release_bcd = 0x20190923;  // year [31:16], month, day, all BCD
  std::string psid = "MT_0000000001";
  std::string name = "TEST-PART_Ax";
  std::string description = "synthetic test image";
  std::uint32_t hw_id = 0x249;
  std::uint16_t issu = 2;
  std::uint32_t image_info_layout = 0x00030000;  // IMAGE_INFO dword 0: layout version 0.3
  std::uint32_t security_version = 0;  // FS4 HW pointer slot 13
  std::uint64_t itoc_gap_sectors = 0;  // FS3: blank 4 KiB sectors before the ITOC
  std::string ini = "[fw]\nkey = value\n";
  bool with_ini = true;
  std::vector<SyntheticSection> extra;  // added after the standard sections
};

// Offsets of interesting parts in a built image (for corruption tests).
struct SyntheticLayout {
  std::vector<std::uint8_t> bytes;
  std::uint64_t itoc = 0;
  std::uint64_t dtoc = 0;  // FS4 only
  std::uint64_t main_code = 0;
  std::uint64_t main_code_size = 0;
  std::uint64_t boot2 = 0;
};

// Default sections: FS3 — IMAGE_INFO, MAIN_CODE, DBG_FW_INI (ITOC); NV_DATA (no CRC),
// DEV_INFO, MFG_INFO, VPD_R0 (size 0) as device data. FS4 — RESET_INFO, MAIN_CODE,
// IMAGE_INFO, DBG_FW_INI (ITOC); NV_DATA (no CRC), DEV_INFO (CRC in section) plus a blank
// DEV_INFO copy, MFG_INFO, VPD_R0 (DTOC).
[[nodiscard]] SyntheticLayout build_fs3(const SyntheticSpec& spec = {});
[[nodiscard]] SyntheticLayout build_fs4(const SyntheticSpec& spec = {});
// An FS3 image a firmware with MCC takes and mstflint burns through MCC: IMAGE_INFO mcc_en
// (dword 0 bit 8) set, and an IMAGE_SIGNATURE_256 (0xa0) and a PUBLIC_KEYS_2048 (0xa1) section
// (mstflint fs3_ops: without both its security mode is "none" and it refuses the MCC burn as an
// "old image format"). Both are zero-filled: nothing here checks signatures.
[[nodiscard]] SyntheticLayout build_fs3_mcc(SyntheticSpec spec);

// An IMAGE_INFO section (0x400 bytes, layout 0.3) for `spec`.
[[nodiscard]] std::vector<std::uint8_t> make_image_info(const SyntheticSpec& spec);

// Writes the software CRC16 of a 0x20-byte TOC block's first 7 dwords into its last dword.
void reseal_toc_block(std::vector<std::uint8_t>& image, std::uint64_t offset);

}  // namespace openflint::test
