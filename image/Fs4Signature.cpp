// Fs4Signature: signing FS4 images the way mstflint 4.21's `sign --private_key --key_uuid` does.
#include "image/Fs4Signature.h"

#include <algorithm>
#include <cctype>

#include "core/HexString.h"
#include "image/Crc16.h"
#include "image/Fs4Image.h"
#include "image/SectionType.h"
#include "image/TocWalk.h"

namespace openflint::fs4 {
namespace {

namespace st = section_type;

constexpr std::uint64_t kMagicSize = 16;

constexpr std::uint64_t kHashesTablePointer = 0x18 + 15 * 8;  // the 16th HW pointer

// The ITOC's sections of the FS4 image at offset 0 (sections of a file image count from 0).
Result<TocWalk> itoc_sections(Bytes image) {
  if (!probe(image, 0)) return make_error(ErrorCode::NotSupported, "not an FS4 image: signing is for FS4 images only");
  OF_ASSIGN(const ItocLocation where, locate_itoc(image, 0));
  TocWalk walk = walk_toc(image, where.itoc, {.kind = TocKind::Itoc, .fs4 = true, .addressing = TocAddressing::Relative});
  if (!walk.problems.empty()) return make_error(ErrorCode::InvalidImage, "ITOC: " + walk.problems.front());
  return walk;
}

// An image with a hashes table ("secure boot version 2") has MAIN's and the boot record's CRCs
// left out of its signed bytes and each section's SHA-512 in the table (mstflint
// Fs4Operations::GetImageDataForSign, UpdateSectionHashInHashesTable): not done here.
Result<void> refuse_hashes_table(Bytes image) {
  const std::uint32_t pointer = ByteReader::load_be32(&image[kHashesTablePointer]);
  if (pointer != 0 && pointer != 0xffffffffu)
    return make_error(ErrorCode::NotSupported,
                      "the image has a hashes table (at " + hex_string(pointer) + "): signing such images is not supported");
  return {};
}

const TocSection* find_section(const TocWalk& walk, std::uint8_t type) {
  for (const auto& s : walk.sections)
    if (s.entry.type == type) return &s;
  return nullptr;
}

bool in_range(Bytes image, std::uint64_t at, std::uint64_t size) { return at <= image.size() && size <= image.size() - at; }

// Where a signature for each section type goes and what signs it: 2048-bit keys and SHA-256 in
// IMAGE_SIGNATURE_256, 4096-bit keys and SHA-512 in IMAGE_SIGNATURE_512 (mstflint signForFwUpdate).
struct Scheme {
  std::uint8_t type;
  std::uint8_t other;  // zeroed before signing
  int bits;
  DigestAlgorithm digest;
  std::uint64_t layout_size;
};
constexpr std::array<Scheme, 2> kSchemes{{
    {st::kImageSignature256, st::kImageSignature512, 2048, DigestAlgorithm::Sha256, kSignature256Size},
    {st::kImageSignature512, st::kImageSignature256, 4096, DigestAlgorithm::Sha512, kSignature512Size},
}};

const Scheme& scheme_of(std::uint8_t type) { return type == st::kImageSignature256 ? kSchemes[0] : kSchemes[1]; }

// Replaces a section's bytes and updates its ITOC entry: the section CRC where the entry's CRC mode
// keeps it, then the entry's own CRC (mstflint Fs4UpdateItocInfo).
void write_section(std::vector<std::uint8_t>& img, const TocSection& s, const std::vector<std::uint8_t>& data) {
  std::copy(data.begin(), data.end(), img.begin() + static_cast<std::ptrdiff_t>(s.address));
  std::uint8_t* entry = &img[s.entry_offset];
  if (s.entry.crc_field == kCrcInEntry) {
    const std::uint32_t mode = ByteReader::load_be32(entry + 0x18) & 0xffff0000u;
    store_be32(entry + 0x18, mode | crc16(data));
  } else if (s.entry.crc_field == kCrcInSection && data.size() >= 4) {
    std::uint8_t* section = &img[s.address];
    store_be32(section + data.size() - 4, crc16(Bytes(section, data.size() - 4)));
  }
  store_be32(entry + 0x1C, crc16(Bytes(entry, 0x1C)));
}

bool all_of_byte(Bytes b, std::uint8_t v) {
  return std::all_of(b.begin(), b.end(), [v](std::uint8_t x) { return x == v; });
}

}  // namespace

Result<KeyUuid> parse_key_uuid(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c == '-' || c == ':' || std::isspace(static_cast<unsigned char>(c)) != 0) continue;
    if (std::isxdigit(static_cast<unsigned char>(c)) == 0)
      return make_error(ErrorCode::InvalidArgument, "key UUID '" + std::string(text) +
                                                        "': only hex digits (and hyphens between them) are allowed");
    digits += c;
  }
  if (digits.size() != 32)
    return make_error(ErrorCode::InvalidArgument,
                      "key UUID '" + std::string(text) + "': must have 32 hex digits, has " + std::to_string(digits.size()));
  KeyUuid out{};
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(std::stoi(digits.substr(2 * i, 2), nullptr, 16));
  return out;
}

std::string key_uuid_text(const KeyUuid& uuid) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[uuid[i] >> 4];
    out += kHex[uuid[i] & 0xf];
  }
  return out;
}

std::string_view to_string(SignatureState state) {
  switch (state) {
    case SignatureState::Blank: return "unsigned";
    case SignatureState::Digest: return "digest";
    case SignatureState::Signed: return "signed";
  }
  return "unsigned";
}

Result<std::vector<std::uint8_t>> signed_bytes(Bytes image, std::uint8_t type) {
  OF_ASSIGN(const TocWalk walk, itoc_sections(image));
  // mstflint's image size: the end of the last ITOC section (Fs4Operations::getImageSize).
  std::uint64_t end = 0;
  for (const auto& s : walk.sections) end = std::max<std::uint64_t>(end, s.address + s.entry.size);
  if (!in_range(image, 0, end)) return make_error(ErrorCode::InvalidImage, "an ITOC section lies beyond the image's end");
  std::vector<std::uint8_t> out(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(end));
  std::fill_n(out.begin(), std::min<std::uint64_t>(kMagicSize, end), 0xff);
  const auto mask = [&](std::uint8_t masked) {
    for (const auto& s : walk.sections) {
      if (s.entry.type != masked) continue;
      std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(s.address), s.entry.size, 0xff);
      if (in_range(out, s.entry_offset, kTocEntrySize))
        std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(s.entry_offset), kTocEntrySize, 0xff);
    }
  };
  mask(st::kImageSignature256);
  if (type == st::kImageSignature512) mask(st::kImageSignature512);
  return out;
}

Result<std::vector<std::uint8_t>> sign_image(Bytes image, const RsaKey& key, const KeyUuid& uuid) {
  const int bits = key.bits();
  const auto scheme = std::find_if(kSchemes.begin(), kSchemes.end(), [&](const Scheme& s) { return s.bits == bits; });
  if (scheme == kSchemes.end())
    return make_error(ErrorCode::InvalidArgument,
                      "the key has " + std::to_string(bits) + " bits; FS4 images are signed with 2048- or 4096-bit RSA keys");
  OF_ASSIGN(const TocWalk walk, itoc_sections(image));
  OF_TRY(refuse_hashes_table(image));
  const TocSection* target = find_section(walk, scheme->type);
  const std::string name(section_type::name(scheme->type));
  if (target == nullptr)
    return make_error(ErrorCode::InvalidImage, "the image has no " + name + " section for a " + std::to_string(bits) +
                                                   "-bit key's signature");
  if (target->entry.size < scheme->layout_size || !in_range(image, target->address, target->entry.size))
    return make_error(ErrorCode::InvalidImage, name + " at " + hex_string(target->address) + " is too small");

  std::vector<std::uint8_t> out(image.begin(), image.end());
  if (const TocSection* other = find_section(walk, scheme->other);
      other != nullptr && in_range(image, other->address, other->entry.size))
    write_section(out, *other, std::vector<std::uint8_t>(other->entry.size, 0));
  OF_ASSIGN(const auto covered, signed_bytes(out, scheme->type));
  OF_ASSIGN(const auto signature, key.sign(scheme->digest, covered));
  std::vector<std::uint8_t> section(target->entry.size, 0);
  std::copy(uuid.begin(), uuid.end(), section.begin() + kKeyUuidOffset);
  std::copy(signature.begin(), signature.end(), section.begin() + kSignatureOffset);
  write_section(out, *target, section);
  return out;
}

Result<std::vector<std::uint8_t>> insert_digest(Bytes image) {
  OF_ASSIGN(const TocWalk walk, itoc_sections(image));
  OF_TRY(refuse_hashes_table(image));
  const TocSection* target = find_section(walk, st::kImageSignature256);
  if (target == nullptr) return make_error(ErrorCode::InvalidImage, "the image has no IMAGE_SIGNATURE_256 section for its digest");
  if (target->entry.size < kSignature256Size || !in_range(image, target->address, target->entry.size))
    return make_error(ErrorCode::InvalidImage, "IMAGE_SIGNATURE_256 at " + hex_string(target->address) + " is too small");
  OF_ASSIGN(const auto covered, signed_bytes(image, st::kImageSignature256));
  OF_ASSIGN(const auto digest, digest_of(DigestAlgorithm::Sha256, covered));
  std::vector<std::uint8_t> out(image.begin(), image.end());
  std::vector<std::uint8_t> section(target->entry.size, 0);
  std::copy(digest.begin(), digest.end(), section.begin() + kSignatureOffset);
  write_section(out, *target, section);
  return out;
}

Result<std::vector<SignatureInfo>> read_signatures(Bytes image, const RsaKey* public_key) {
  OF_ASSIGN(const TocWalk walk, itoc_sections(image));
  std::vector<SignatureInfo> out;
  for (const auto& s : walk.sections) {
    if (s.entry.type != st::kImageSignature256 && s.entry.type != st::kImageSignature512) continue;
    const Scheme& scheme = scheme_of(s.entry.type);
    SignatureInfo info{.type = s.entry.type, .address = s.address, .size = s.entry.size,
                       .state = SignatureState::Blank, .key_uuid = {}, .matches = std::nullopt};
    if (s.entry.size < scheme.layout_size || !in_range(image, s.address, s.entry.size))
      return make_error(ErrorCode::InvalidImage, std::string(section_type::name(s.entry.type)) + " at " +
                                                     hex_string(s.address) + " is too small or out of range");
    const Bytes data = image.subspan(s.address, s.entry.size);
    std::copy_n(data.begin() + kKeyUuidOffset, info.key_uuid.size(), info.key_uuid.begin());
    const bool no_uuid = all_of_byte(data.subspan(0, kSignatureOffset), 0);
    if (all_of_byte(data, 0) || all_of_byte(data, 0xff)) {
      info.state = SignatureState::Blank;
    } else if (no_uuid && s.entry.type == st::kImageSignature256 && all_of_byte(data.subspan(kSignatureOffset + 32), 0)) {
      info.state = SignatureState::Digest;
      OF_ASSIGN(const auto covered, signed_bytes(image, s.entry.type));
      OF_ASSIGN(const auto digest, digest_of(DigestAlgorithm::Sha256, covered));
      info.matches = std::equal(digest.begin(), digest.end(), data.begin() + kSignatureOffset);
    } else {
      info.state = SignatureState::Signed;
      if (public_key != nullptr && public_key->bits() == scheme.bits) {
        OF_ASSIGN(const auto covered, signed_bytes(image, s.entry.type));
        OF_ASSIGN(info.matches, public_key->verify(scheme.digest, covered,
                                                   data.subspan(kSignatureOffset, static_cast<std::size_t>(scheme.bits / 8))));
      }
    }
    out.push_back(info);
  }
  return out;
}

}  // namespace openflint::fs4
