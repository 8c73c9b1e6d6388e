// SectionType: the section type → name table (data, as mstflint's verify output spells them).
#include "image/SectionType.h"

#include <array>
#include <cstdio>
#include <utility>

namespace openflint::section_type {
namespace {

constexpr std::string_view kUnknown = "UNKNOWN";

// Several types share a printed name (the NV_DATA copies, the PROGRAMMABLE_HW_FW pair).
constexpr std::array<std::pair<std::uint8_t, std::string_view>, 65> kNames{{
    {0xff, "END"},
    {0xfd, "ITOC_HEADER"},
    {0x01, "BOOT_CODE"},
    {0x02, "PCI_CODE"},
    {0x03, "MAIN_CODE"},
    {0x04, "PCIE_LINK_CODE"},
    {0x05, "IRON_PREP_CODE"},
    {0x06, "POST_IRON_BOOT_CODE"},
    {0x07, "UPGRADE_CODE"},
    {0x08, "HW_BOOT_CFG"},
    {0x09, "HW_MAIN_CFG"},
    {0x0a, "PHY_UC_CODE"},
    {0x0b, "PHY_UC_CONSTS"},
    {0x0c, "PCIE_PHY_UC_CODE"},
    {0x0d, "CCIR_INFRA_CODE"},
    {0x0e, "CCIR_ALGO_CODE"},
    {0x0f, "BOOT3_CODE"},
    {0x10, "IMAGE_INFO"},
    {0x11, "FW_BOOT_CFG"},
    {0x12, "FW_MAIN_CFG"},
    {0x14, "APU_KERNEL"},
    {0x15, "APU_APPS"},
    {0x18, "ROM_CODE"},
    {0x20, "RESET_INFO"},
    {0x30, "DBG_FW_INI"},
    {0x32, "DBG_FW_PARAMS"},
    {0x33, "FW_ADB"},
    {0x34, "GB_FW_CODE"},
    {0x35, "TILE_FW_CODE"},
    {0x36, "FW_TILE_INI"},
    {0x37, "HW_TILE_INI"},
    {0x60, "TRACE_STRINGS"},  // openflint's own (image/FirmwareTraceStrings.h)
    {0xa0, "IMAGE_SIGNATURE_256"},
    {0xa1, "PUBLIC_KEYS_2048"},
    {0xa4, "PUBLIC_KEYS_4096"},
    {0xa2, "FORBIDDEN_VERSIONS"},
    {0xa3, "IMAGE_SIGNATURE_512"},
    {0xe9, "CRDUMP_MASK_DATA"},
    {0xa5, "HMAC_DIGEST"},
    {0xe0, "MFG_INFO"},
    {0xe1, "DEV_INFO"},
    {0xe2, "NV_DATA"},
    {0xe3, "VPD_R0"},
    {0xe4, "NV_DATA"},
    {0xe5, "FW_NV_LOG"},
    {0xe6, "NV_DATA"},
    {0xe7, "DEV_INFO1"},
    {0xe8, "DEV_INFO2"},
    {0xea, "FW_INTERNAL_USAGE"},
    {0xeb, "PROGRAMMABLE_HW_FW"},
    {0xec, "PROGRAMMABLE_HW_FW"},
    {0xed, "DIGITAL_CERT_PTR"},
    {0xee, "DIGITAL_CERT_RW"},
    {0xef, "LC_INI1_TABLE"},
    {0xf0, "LC_INI2_TABLE"},
    {0xf1, "LC_INI_NV_DATA"},
    {0xf2, "CERT_CHAIN_0"},
    {0xf3, "DIGITAL_CACERT_RW"},
    {0xfe, "DTOC_HEADER"},
    {0xfb, "HW_POINTERS"},
    {0xfc, "TOOLS_AREA"},
    {0xa6, "RSA_PUBLIC_KEY"},
    {0xa7, "RSA_4096_SIGNATURES"},
    {0xb0, "EXCLKSYNC_INFO"},
    {0xfa, "HASHES_TABLE"},
}};

}  // namespace

std::string_view name(std::uint8_t type) {
  for (const auto& [code, text] : kNames)
    if (code == type) return text;
  return kUnknown;
}

std::string display_name(std::uint8_t type) {
  const std::string_view text = name(type);
  if (text != kUnknown) return std::string(text);
  char buf[24];
  std::snprintf(buf, sizeof buf, "UNKNOWN:0x%x", type);
  return buf;
}

bool is_query_section(std::uint8_t type) {
  return type == kImageInfo || type == kDevInfo || type == kMfgInfo;
}

}  // namespace openflint::section_type
