// MfaTestArchive: helpers for MFA tests — sample boards, collecting sinks, section surgery.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/ByteReader.h"
#include "image/MfaArchive.h"
#include "image/MfaFormat.h"
#include "image/MfaWriter.h"
#include "image/XzStream.h"

namespace openflint::test {

// Deterministic bytes: mostly repetitive (compressible, like firmware) with a seed-dependent
// sprinkle so boards differ and misplaced bytes are noticed.
inline std::vector<std::uint8_t> sample_image(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> out(size);
  std::uint32_t x = seed * 2654435761u + 1;
  for (std::size_t i = 0; i < size; ++i) {
    x = x * 1664525u + 1013904223u;
    out[i] = (i % 64 < 8) ? static_cast<std::uint8_t>(x >> 24) : static_cast<std::uint8_t>(i / 64 + seed);
  }
  return out;
}

inline MfaBoardSpec sample_board(const std::string& psid, std::size_t size, std::uint32_t seed) {
  return MfaBoardSpec{psid, "PN-" + psid, "board " + psid + " description",
                      FwVersion{13, static_cast<std::uint16_t>(2000 + seed), 1658},
                      sample_image(size, seed)};
}

// Preset 1 by default: quick, and the format does not depend on it.
inline std::vector<std::uint8_t> build_archive(const std::vector<MfaBoardSpec>& boards,
                                               MfaWriteOptions options = {1, true}) {
  MfaWriter writer(options);
  for (const auto& board : boards) {
    auto added = writer.add_board(board);
    EXPECT_TRUE(added.has_value()) << added.error().message();
  }
  auto bytes = writer.build();
  EXPECT_TRUE(bytes.has_value()) << bytes.error().message();
  return bytes.has_value() ? std::move(bytes).value() : std::vector<std::uint8_t>{};
}

// A sink that appends everything it receives to `out`.
inline MfaArchive::Sink collect_into(std::vector<std::uint8_t>& out) {
  return [&out](Bytes chunk) -> Result<void> {
    out.insert(out.end(), chunk.begin(), chunk.end());
    return {};
  };
}

inline void fix_crc(std::vector<std::uint8_t>& archive) {
  const std::size_t n = archive.size() - mfa::kCrcSize;
  store_be32(archive.data() + n, static_cast<std::uint32_t>(crc32_z(crc32_z(0, nullptr, 0), archive.data(), n)));
}

struct SectionAt {
  std::size_t header = 0;  // offset of the 8-byte section header
  std::uint8_t flags = 0;
  std::uint32_t size = 0;
  [[nodiscard]] std::size_t payload() const { return header + mfa::kSectionHeaderSize; }
};

// Finds section `type` in a well-formed archive.
inline SectionAt find_section(const std::vector<std::uint8_t>& archive, std::uint8_t type) {
  std::size_t pos = mfa::kHeaderSize;
  while (pos + mfa::kSectionHeaderSize <= archive.size() - mfa::kCrcSize) {
    const SectionAt s{pos, archive[pos + 3], ByteReader::load_be32(archive.data() + pos + 4)};
    if (archive[pos] == type) return s;
    pos = s.payload() + s.size;
  }
  ADD_FAILURE() << "section " << int{type} << " not found";
  return {};
}

// The (decompressed) payload of section `type`.
inline std::vector<std::uint8_t> section_payload(const std::vector<std::uint8_t>& archive,
                                                 std::uint8_t type) {
  const SectionAt s = find_section(archive, type);
  const Bytes raw = Bytes(archive).subspan(s.payload(), s.size);
  if ((s.flags & mfa::kSectionFlagXz) == 0) return {raw.begin(), raw.end()};
  auto unpacked = xz_decompress(raw, 1u << 30);
  EXPECT_TRUE(unpacked.has_value());
  return unpacked.has_value() ? std::move(unpacked).value() : std::vector<std::uint8_t>{};
}

// Replaces section `type`'s payload (compressing it again when the section is xz) and fixes
// the section size and the CRC, so that only the payload content is wrong.
inline std::vector<std::uint8_t> replace_section(const std::vector<std::uint8_t>& archive,
                                                 std::uint8_t type, std::vector<std::uint8_t> payload,
                                                 bool recompress = true) {
  const SectionAt s = find_section(archive, type);
  if (recompress && (s.flags & mfa::kSectionFlagXz) != 0) payload = xz_compress(payload).value();
  std::vector<std::uint8_t> out(archive.begin(), archive.begin() + static_cast<std::ptrdiff_t>(s.payload()));
  store_be32(out.data() + s.header + 4, static_cast<std::uint32_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  out.insert(out.end(), archive.begin() + static_cast<std::ptrdiff_t>(s.payload() + s.size), archive.end());
  fix_crc(out);
  return out;
}

}  // namespace openflint::test
