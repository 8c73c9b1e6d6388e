// Fs4Signature: an FS4 image's signature sections (IMAGE_SIGNATURE_256, IMAGE_SIGNATURE_512): the
// bytes a signature covers, signing them with the user's RSA key, and reading what a section holds.
// The facts follow mstflint 4.21 (mlxfwops/lib/fs3_ops.cpp signForFwUpdate, FwInsertEncSHA,
// GetImageDataForSign, FwExtract4MBImage; fs4_ops.cpp MaskItocSectionAndEntry, getImageSize) so
// that its `sign` and ours write the same bytes; docs/flint.md has the layout.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "image/RsaKey.h"

namespace openflint::fs4 {

// Section layout: 16 bytes signature UUID (zero), 16 bytes key-pair UUID, then the signature.
inline constexpr std::uint64_t kKeyUuidOffset = 0x10;
inline constexpr std::uint64_t kSignatureOffset = 0x20;
inline constexpr std::uint64_t kSignature256Size = 0x140;  // 2048-bit RSA, SHA-256
inline constexpr std::uint64_t kSignature512Size = 0x240;  // 4096-bit RSA, SHA-512

using KeyUuid = std::array<std::uint8_t, 16>;

// 32 hex digits; hyphens, colons and blanks between them are ignored (as mstflint does).
[[nodiscard]] Result<KeyUuid> parse_key_uuid(std::string_view text);
// 8-4-4-4-12 lower-case hex.
[[nodiscard]] std::string key_uuid_text(const KeyUuid& uuid);

enum class SignatureState {
  Blank,   // all zeros or all ones: reserved, never signed
  Digest,  // no key UUID, a SHA-256 digest of the image (what vendor builds and mstflint's sign without a key write)
  Signed,  // a key-pair UUID and an RSA signature
};
[[nodiscard]] std::string_view to_string(SignatureState state);

// One signature section of an image and what it holds.
struct SignatureInfo {
  std::uint8_t type = 0;  // IMAGE_SIGNATURE_256 or _512
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  SignatureState state = SignatureState::Blank;
  KeyUuid key_uuid{};
  // Digest: whether it is the image's SHA-256. Signed: whether the public key given verifies it
  // (nullopt without a key, or with a key of another size than the section's).
  std::optional<bool> matches;
};

// The signature sections of the FS4 image at offset 0, in ITOC order (empty when it has none).
// With `public_key`, each signed section of the key's size is verified with it.
[[nodiscard]] Result<std::vector<SignatureInfo>> read_signatures(Bytes image, const RsaKey* public_key = nullptr);

// The bytes a signature in section `type` covers: the image up to the end of its last ITOC
// section, with the 16-byte magic pattern, the IMAGE_SIGNATURE_256 section and its ITOC entry
// (and for _512 also the _512 ones) set to all-ones.
[[nodiscard]] Result<std::vector<std::uint8_t>> signed_bytes(Bytes image, std::uint8_t type);

// The image signed with `key` (2048 bits: IMAGE_SIGNATURE_256 over SHA-256, after zeroing an
// IMAGE_SIGNATURE_512 section; 4096 bits: IMAGE_SIGNATURE_512 over SHA-512, after zeroing the
// _256 one), the section's ITOC entry CRCs updated. InvalidImage when the image is not FS4 or has
// no section for the key's size; InvalidArgument for a key of another size.
[[nodiscard]] Result<std::vector<std::uint8_t>> sign_image(Bytes image, const RsaKey& key, const KeyUuid& uuid);

// The image with the SHA-256 of its signed bytes (IMAGE_SIGNATURE_256's) in IMAGE_SIGNATURE_256 at
// 0x20, no key UUID: what mstflint's `sign` without a key writes (Fs3Operations::FwInsertSHA256).
[[nodiscard]] Result<std::vector<std::uint8_t>> insert_digest(Bytes image);

}  // namespace openflint::fs4
