// PldmFormat: byte layout constants of DMTF DSP0267 PLDM firmware update packages (.fwpkg), shared by reader and writer.
#pragma once

#include <array>
#include <cstdint>

namespace openflint::pldm {

// All multi-byte fields are little-endian; nothing is aligned. Layout (DSP0267 1.0-1.3):
//   package header information  {uuid[16], u8 format_revision, le16 header_size, timestamp104[13],
//                                le16 component_bitmap_bits, u8 version_type, u8 version_len, version}
//   firmware device ID area     {u8 count, records}
//   downstream device ID area   {u8 count, records}                  (format revision >= 2: 1.1)
//   component image info area   {le16 count, infos}
//   le32 package header checksum (CRC-32/IEEE over the header before it)
//   le32 package payload checksum (CRC-32/IEEE over everything after it)  (revision >= 4: 1.3)
//   component images, each where its info's location offset (from byte 0 of the file) says.
// header_size counts everything up to and including the checksum(s).
using Uuid = std::array<std::uint8_t, 16>;

// PackageHeaderIdentifier per spec version, and the format revision that goes with it.
struct HeaderVersion {
  Uuid identifier;
  std::uint8_t revision;
  const char* spec;
};
inline constexpr HeaderVersion kHeaderVersions[] = {
    {{0xF0, 0x18, 0x87, 0x8C, 0xCB, 0x7D, 0x49, 0x43, 0x98, 0x00, 0xA0, 0x2F, 0x05, 0x9A, 0xCA, 0x02}, 1, "1.0"},
    {{0x12, 0x44, 0xD2, 0x64, 0x8D, 0x7D, 0x47, 0x18, 0xA0, 0x30, 0xFC, 0x8A, 0x56, 0x58, 0x7D, 0x5A}, 2, "1.1"},
    {{0x31, 0x19, 0xCE, 0x2F, 0xE8, 0x0A, 0x4A, 0x99, 0xAF, 0x6D, 0x46, 0xF8, 0xB1, 0x21, 0xF6, 0xBF}, 3, "1.2"},
    // The value libpldm and the DSP0267 1.3.0 samples use (some prose copies transpose it as ...0202E646...).
    {{0x7B, 0x29, 0x1C, 0x99, 0x6D, 0xB6, 0x42, 0x08, 0x80, 0x1B, 0x02, 0x02, 0x6E, 0x46, 0x3C, 0x78}, 4, "1.3"},
};
inline constexpr std::uint8_t kRevisionDownstream = 2;       // 1.1: downstream device ID area
inline constexpr std::uint8_t kRevisionOpaqueData = 3;       // 1.2: component opaque data
inline constexpr std::uint8_t kRevisionPayloadChecksum = 4;  // 1.3: reference manifests, payload CRC

inline constexpr std::uint64_t kHeaderFixedSize = 36;     // up to and including version_len
inline constexpr std::uint64_t kTimestampSize = 13;       // timestamp104 (DSP0240)
inline constexpr std::uint64_t kRecordFixedSize = 11;     // {le16 len, u8 descs, le32 flags, u8 vtype, u8 vlen, le16 pkgdata}
inline constexpr std::uint64_t kComponentFixedSize = 22;  // {class, id, le32 stamp, options, activation, le32 offset, le32 size, vtype, vlen}
inline constexpr std::uint64_t kDescriptorHeaderSize = 4; // {le16 type, le16 length}

// Descriptor types (DSP0267 table "Descriptor identifier table").
inline constexpr std::uint16_t kDescPciVendorId = 0x0000;
inline constexpr std::uint16_t kDescIanaEnterpriseId = 0x0001;
inline constexpr std::uint16_t kDescUuid = 0x0002;
inline constexpr std::uint16_t kDescPnpVendorId = 0x0003;
inline constexpr std::uint16_t kDescAcpiVendorId = 0x0004;
inline constexpr std::uint16_t kDescPciDeviceId = 0x0100;
inline constexpr std::uint16_t kDescPciSubsystemVendorId = 0x0101;
inline constexpr std::uint16_t kDescPciSubsystemId = 0x0102;
inline constexpr std::uint16_t kDescPciRevisionId = 0x0103;
inline constexpr std::uint16_t kDescPnpProductId = 0x0104;
inline constexpr std::uint16_t kDescAcpiProductId = 0x0105;
inline constexpr std::uint16_t kDescVendorDefined = 0xFFFF;
// The size a standard descriptor's data must have; 0 for vendor-defined and unknown types (any size).
constexpr std::uint16_t descriptor_size(std::uint16_t type) {
  switch (type) {
    case kDescPciVendorId:
    case kDescPciDeviceId:
    case kDescPciSubsystemVendorId:
    case kDescPciSubsystemId: return 2;
    case kDescPciRevisionId: return 1;
    case kDescPnpVendorId: return 3;
    case kDescIanaEnterpriseId:
    case kDescAcpiVendorId:
    case kDescPnpProductId:
    case kDescAcpiProductId: return 4;
    case kDescUuid: return 16;
    default: return 0;
  }
}
// A vendor-defined descriptor's data: {u8 title_type, u8 title_len, title, value}. NVIDIA's titles
// (mstflint pldmlib/pldm_record_descriptor.h): "PSID" (ASCII, NUL-terminated), "APSKU" (le32), "recovery".
inline constexpr char kNvidiaPsidTitle[] = "PSID";
inline constexpr std::uint16_t kPciVendorMellanox = 0x15B3;

inline constexpr std::uint8_t kStringAscii = 1;
// NVIDIA's firmware component (mstflint pldmlib/pldm_utils.*): identifier 1, classification
// 0x000D (software bundle), options bit 0 (force update), activation 0x0038, no comparison stamp.
inline constexpr std::uint16_t kComponentFirmware = 0x0001;
inline constexpr std::uint16_t kClassificationSoftwareBundle = 0x000D;
inline constexpr std::uint16_t kOptionForceUpdate = 0x0001;
inline constexpr std::uint16_t kActivationNvidia = 0x0038;
inline constexpr std::uint32_t kNoComparisonStamp = 0xFFFFFFFF;
// DownstreamDeviceUpdateOptionFlags bit 0: a SelfContainedActivationMinVersionComparisonStamp follows the string.
inline constexpr std::uint32_t kDownstreamHasMinStamp = 0x1;

}  // namespace openflint::pldm
