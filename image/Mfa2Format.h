// Mfa2Format: byte layout constants of MFA2 firmware packages (what devlink and fwupd take), shared by reader and writer.
#pragma once

#include <cstdint>

namespace openflint::mfa2 {

// All multi-byte fields are big-endian. Layout: fingerprint, TLVs (each 4-byte aligned),
// then the component block (CB) at the package descriptor's cb_offset (4-byte aligned).
inline constexpr char kFingerprint[16] = {'M', 'L', 'N', 'X', '.', 'M', 'F', 'A',
                                          '2', '.', 'X', 'Z', '.', '0', '0', '!'};
inline constexpr std::uint64_t kFingerprintSize = 16;
// Each component in the (unpacked) CB starts with this magic; its cb_offset points at it and
// its size does not count it.
inline constexpr char kComponentMagic[16] = {'#', 'B', 'I', 'N', '.', 'C', 'O', 'M',
                                             'P', 'O', 'N', 'E', 'N', 'T', '!', '#'};
inline constexpr std::uint64_t kComponentMagicSize = 16;

// TLV header: {u8 version, u8 type, be16 len}; the next TLV starts at align4(4 + len).
inline constexpr std::uint64_t kTlvHeaderSize = 4;
inline constexpr std::uint8_t kTlvMultiPart = 0x01;
inline constexpr std::uint8_t kTlvPackageDescriptor = 0x02;
inline constexpr std::uint8_t kTlvComponentDescriptor = 0x04;
inline constexpr std::uint8_t kTlvComponentPtr = 0x22;
inline constexpr std::uint8_t kTlvPsid = 0x2A;
// Optional package-descriptor extensions mstflint's writer adds (the kernel ignores them):
// SHA-256 of the descriptors with both digests zeroed, followed by the stored component block
// (0x2F), and of those descriptors alone (0x30). (mstflint mlxarchive_mfa2.cpp: its second pass
// writes the digests its first pass computed over zeroed digest fields.)
inline constexpr std::uint8_t kTlvSha256 = 0x2F;
inline constexpr std::uint8_t kTlvDescriptorsSha256 = 0x30;
inline constexpr std::uint16_t kSha256Size = 32;

// Multi-part payload {be16 num_extensions, be16 total_len}: num_extensions + 1 children follow
// the (aligned) multi-part TLV; total_len is their size; the next sibling starts at
// align4(8 + total_len) from the multi-part TLV.
inline constexpr std::uint16_t kMultiPayloadSize = 4;
// {be16 num_components, be16 num_devices, be32 cb_offset, be32 cb_archive_size, be32 cb_size_h,
//  be32 cb_size_l, u8 pad[3], u8 cb_compression, be32 user_data_offset}
inline constexpr std::uint16_t kPackageDescriptorSize = 28;
inline constexpr std::uint8_t kCompressionNone = 0;
inline constexpr std::uint8_t kCompressionXz = 1;
// {be16 storage_id, be16 component_index, be32 storage_address}
inline constexpr std::uint16_t kComponentPtrSize = 8;
// {be16 pldm_classification, be16 identifier, be32 cb_offset_h, be32 cb_offset_l, be32 size}
inline constexpr std::uint16_t kComponentDescriptorSize = 16;
// The component identifier of a firmware image (the MCQI/MCC component index the kernel flashes).
inline constexpr std::uint16_t kComponentFirmware = 1;

constexpr std::uint64_t align4(std::uint64_t n) { return (n + 3) & ~std::uint64_t{3}; }

}  // namespace openflint::mfa2
