// MfaArchive: opening an MFA v1 archive — header, sections, CRC32 trailer, MAP and TOC.
#include "core/HexString.h"
#include "image/MfaArchive.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "core/InputFile.h"
#include "core/MemorySource.h"
#include "image/MfaFormat.h"
#include "image/XzStream.h"

namespace openflint {
namespace {

const char* section_name(std::uint8_t type) {
  switch (type) {
    case mfa::kSectionMap: return "MAP";
    case mfa::kSectionToc: return "TOC";
    case mfa::kSectionData: return "DATA";
    default: return "unknown";
  }
}

struct Section {
  std::uint8_t flags = 0;
  std::uint64_t offset = 0;  // of the payload in the archive
  std::uint32_t size = 0;
  bool present = false;
};

// Walks the section headers between the file header and the CRC trailer.
Result<void> read_sections(const ByteSource& file, Section (&sections)[4]) {
  const std::uint64_t end = file.size() - mfa::kCrcSize;
  std::uint64_t pos = mfa::kHeaderSize;
  while (pos < end) {
    if (end - pos < mfa::kSectionHeaderSize)
      return make_error(ErrorCode::InvalidImage,
                        "section header at " + hex_string(pos) + " runs into the CRC trailer at " + hex_string(end));
    std::uint8_t raw[mfa::kSectionHeaderSize];
    OF_TRY(file.read(pos, raw));
    const std::uint8_t type = raw[0];
    const std::uint8_t flags = raw[3];
    const std::uint32_t size = ByteReader::load_be32(raw + 4);
    const std::string what = std::string("section ") + section_name(type) + " (type " +
                             std::to_string(type) + ") at " + hex_string(pos);
    if (type < mfa::kSectionMap || type > mfa::kSectionData)
      return make_error(ErrorCode::InvalidImage, what + ": unknown section type");
    if (sections[type].present)
      return make_error(ErrorCode::InvalidImage, what + ": duplicate section");
    if ((flags & ~mfa::kSectionFlagXz) != 0)
      return make_error(ErrorCode::NotSupported, what + ": unknown flags " + hex_string(flags));
    const std::uint64_t payload = pos + mfa::kSectionHeaderSize;
    if (size > end - payload)
      return make_error(ErrorCode::InvalidImage,
                        what + ": payload of " + std::to_string(size) + " bytes runs past " +
                            hex_string(end) + " (file is " + std::to_string(file.size()) + " bytes)");
    sections[type] = Section{flags, payload, size, true};
    pos = payload + size;
  }
  for (std::uint8_t type = mfa::kSectionMap; type <= mfa::kSectionData; ++type)
    if (!sections[type].present)
      return make_error(ErrorCode::InvalidImage,
                        std::string("section ") + section_name(type) + " is missing");
  return {};
}

// The payload of MAP or TOC, decompressed when flagged; at most mfa::kMaxTableSize bytes
// either way (real archives: a few KiB), so a huge table is refused before it is read.
Result<std::vector<std::uint8_t>> table_payload(const ByteSource& file, const Section& section,
                                                std::uint8_t type) {
  const std::string what = std::string("section ") + section_name(type) + " at " + hex_string(section.offset);
  if (section.size > mfa::kMaxTableSize)
    return make_error(ErrorCode::InvalidImage, what + ": " + std::to_string(section.size) +
                                                   " bytes, more than the " + std::to_string(mfa::kMaxTableSize) +
                                                   "-byte limit for a table");
  OF_ASSIGN(std::vector<std::uint8_t> raw, file.read_range(section.offset, section.size));
  if ((section.flags & mfa::kSectionFlagXz) == 0) return raw;
  OF_ASSIGN_CTX(std::vector<std::uint8_t> unpacked, xz_decompress(raw, mfa::kMaxTableSize), what);
  return unpacked;
}

// The zlib CRC32 of [0, length) of `file`, read in `chunk`-byte pieces.
Result<std::uint32_t> crc32_of(const ByteSource& file, std::uint64_t length, std::size_t chunk) {
  std::vector<std::uint8_t> buffer(static_cast<std::size_t>(std::min<std::uint64_t>(chunk, length)));
  auto crc = crc32_z(0, nullptr, 0);
  for (std::uint64_t pos = 0; pos < length;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), length - pos));
    OF_TRY(file.read(pos, std::span(buffer).first(n)));
    crc = crc32_z(crc, buffer.data(), static_cast<z_size_t>(n));
    pos += n;
  }
  return static_cast<std::uint32_t>(crc);
}

// NUL-terminated string at `pos` in [pos, end); the terminator is optional at `end`.
std::string c_string(Bytes block, std::uint64_t& pos) {
  std::string out;
  while (pos < block.size() && block[pos] != 0) out.push_back(static_cast<char>(block[pos++]));
  if (pos < block.size()) ++pos;  // the NUL
  return out;
}

Result<std::map<std::string, std::string>> parse_metadata(Bytes block) {
  std::map<std::string, std::string> out;
  if (block.empty()) return out;
  const ByteReader reader(block);
  OF_ASSIGN(const std::uint16_t count, reader.be16(2));
  std::uint64_t pos = mfa::kMetadataHeaderSize;
  for (std::uint16_t i = 0; i < count; ++i) {
    if (pos >= block.size())
      return make_error(ErrorCode::InvalidImage,
                        "metadata announces " + std::to_string(count) + " pairs, only " +
                            std::to_string(i) + " fit in " + std::to_string(block.size()) + " bytes");
    std::string key = c_string(block, pos);
    std::string value = c_string(block, pos);  // may be cut at the block end (seen in real files)
    out.emplace(std::move(key), std::move(value));
  }
  return out;
}

std::optional<FwVersion> version_of(const std::uint16_t (&fields)[4], std::uint8_t count) {
  if (count == 0) return std::nullopt;
  FwVersion v;
  v.major = fields[0];
  if (count > 1) v.minor = fields[1];
  if (count > 2) v.subminor = fields[2];
  return v;
}

// Fills the TOC-derived fields of `image` from the entry at image.toc_offset.
Result<void> parse_toc_entry(const ByteReader& toc, MfaImageRef& image) {
  const std::uint64_t at = image.toc_offset;
  if (!toc.contains(at, mfa::kTocEntryHeaderSize))
    return make_error(ErrorCode::InvalidImage,
                      "TOC entry at " + hex_string(at) + " is past the end of the TOC (" +
                          std::to_string(toc.size()) + " bytes)");
  OF_ASSIGN(const std::uint32_t offset_lsb, toc.be32(at));
  OF_ASSIGN(image.data_size, toc.be32(at + 4));
  OF_ASSIGN(image.subimage_type, toc.be16(at + 8));
  OF_ASSIGN(const std::uint8_t nver, toc.u8(at + 11));
  std::uint16_t fields[4] = {};
  for (std::uint64_t i = 0; i < mfa::kMaxVersionFields; ++i) {
    OF_ASSIGN(fields[i], toc.be16(at + 12 + 2 * i));
  }
  OF_ASSIGN(const std::uint16_t offset_msb, toc.be16(at + 20));
  OF_ASSIGN(const std::uint16_t md_size, toc.be16(at + 22));
  if (nver > mfa::kMaxVersionFields)
    return make_error(ErrorCode::InvalidImage, "TOC entry at " + hex_string(at) + ": " +
                                                   std::to_string(nver) + " version fields (max 4)");
  image.data_offset = (std::uint64_t{offset_msb} << 32) | offset_lsb;
  image.version = version_of(fields, nver);
  OF_ASSIGN_CTX(const Bytes md, toc.slice(at + mfa::kTocEntryHeaderSize, md_size),
                "TOC entry at " + hex_string(at) + " metadata");
  OF_ASSIGN_CTX(image.metadata, parse_metadata(md), "TOC entry at " + hex_string(at));
  return {};
}

// One MAP entry at `pos`; advances `pos` past it.
Result<MfaBoard> parse_map_entry(const ByteReader& map, const ByteReader& toc, std::uint64_t& pos) {
  MfaBoard board;
  OF_ASSIGN(board.psid, map.fixed_string(pos, mfa::kPsidSize));
  OF_ASSIGN(const std::uint8_t nimages, map.u8(pos + 32));
  OF_ASSIGN(const std::uint16_t md_size, map.be16(pos + 34));
  OF_ASSIGN(const Bytes md, map.slice(pos + mfa::kMapEntryHeaderSize, md_size));
  OF_ASSIGN(board.metadata, parse_metadata(md));
  if (auto it = board.metadata.find("PN"); it != board.metadata.end()) board.part_number = it->second;
  if (auto it = board.metadata.find("DESCRIPTION"); it != board.metadata.end())
    board.description = it->second;
  pos += mfa::kMapEntryHeaderSize + md_size;
  for (std::uint8_t i = 0; i < nimages; ++i, pos += mfa::kMapImageSize) {
    MfaImageRef image;
    OF_ASSIGN(image.toc_offset, map.be32(pos));
    OF_ASSIGN(image.image_type, map.be16(pos + 4));
    OF_ASSIGN(image.group_id, map.u8(pos + 7));
    OF_ASSIGN(image.select_tag, map.fixed_string(pos + 8, mfa::kSelectTagSize));
    OF_TRY_CTX(parse_toc_entry(toc, image), "image " + std::to_string(i));
    board.images.push_back(std::move(image));
  }
  if (const MfaImageRef* fw = board.firmware()) board.fw_version = fw->version;
  return board;
}

}  // namespace

const MfaImageRef* MfaBoard::firmware() const {
  for (const auto& image : images)
    if (image.image_type == mfa::kImageTypeFirmware && image.select_tag.empty()) return &image;
  return nullptr;
}

Result<MfaArchive> MfaArchive::open(const std::string& path) {
  OF_ASSIGN(InputFile file, InputFile::open(path, kMaxArchiveSize, "MFA archive"));
  OF_ASSIGN_CTX(MfaArchive archive, from_source(std::make_shared<const InputFile>(std::move(file))), path);
  return archive;
}

Result<MfaArchive> MfaArchive::from_bytes(std::vector<std::uint8_t> archive) {
  return from_source(std::make_shared<const MemorySource>(std::move(archive)));
}

Result<MfaArchive> MfaArchive::from_source(std::shared_ptr<const ByteSource> source) {
  if (source == nullptr) return make_error(ErrorCode::InvalidArgument, "no archive source");
  MfaArchive out;
  out.source_ = std::move(source);
  OF_TRY(out.parse());
  return out;
}

Result<void> MfaArchive::parse() {
  const ByteSource& file = *source_;
  if (file.size() < mfa::kHeaderSize + mfa::kCrcSize)
    return make_error(ErrorCode::InvalidImage,
                      "too small for an MFA archive (" + std::to_string(file.size()) + " bytes)");
  std::uint8_t header[mfa::kHeaderSize];
  OF_TRY(file.read(0, header));
  if (std::memcmp(header, mfa::kMagic, sizeof mfa::kMagic) != 0)
    return make_error(ErrorCode::InvalidImage, "no MFAR magic at 0x0: not an MFA archive");
  const std::uint32_t version = ByteReader::load_be32(header + 4);
  if (version != mfa::kVersion)
    return make_error(ErrorCode::NotSupported, "MFA version " + std::to_string(version) +
                                                   " (only version 1 is supported)");
  Section sections[4];
  OF_TRY(read_sections(file, sections));
  const std::uint64_t crc_at = file.size() - mfa::kCrcSize;
  std::uint8_t trailer[mfa::kCrcSize];
  OF_TRY(file.read(crc_at, trailer));
  stored_crc_ = ByteReader::load_be32(trailer);
  OF_ASSIGN(const std::uint32_t computed, crc32_of(file, crc_at, kChunkSize));
  if (computed != stored_crc_)
    return make_error(ErrorCode::Mismatch, "archive CRC32 mismatch: stored " + hex_string(stored_crc_) +
                                               ", computed " + hex_string(computed));
  OF_ASSIGN(const std::vector<std::uint8_t> map, table_payload(file, sections[mfa::kSectionMap], mfa::kSectionMap));
  OF_ASSIGN(const std::vector<std::uint8_t> toc, table_payload(file, sections[mfa::kSectionToc], mfa::kSectionToc));
  const Section& data = sections[mfa::kSectionData];
  data_offset_ = data.offset;
  data_size_ = data.size;
  data_xz_ = (data.flags & mfa::kSectionFlagXz) != 0;
  data_unpacked_size_ = data_size_;
  if (data_xz_) {
    OF_ASSIGN_CTX(data_unpacked_size_, xz_uncompressed_size(file, data_offset_, data_size_),
                  "section DATA at " + hex_string(data_offset_));
    if (data_unpacked_size_ > kMaxDataUnpackedSize)
      return make_error(ErrorCode::InvalidImage,
                        "section DATA at " + hex_string(data_offset_) + " unpacks to " +
                            std::to_string(data_unpacked_size_) + " bytes, more than the " +
                            std::to_string(kMaxDataUnpackedSize) + "-byte limit");
  }
  return parse_boards(map, toc);
}

Result<void> MfaArchive::parse_boards(Bytes map_bytes, Bytes toc_bytes) {
  const ByteReader map(map_bytes);
  const ByteReader toc(toc_bytes);
  std::uint64_t pos = 0;
  while (pos < map.size()) {
    const std::uint64_t entry_at = pos;
    OF_ASSIGN_CTX(MfaBoard board, parse_map_entry(map, toc, pos),
                  "MAP entry " + std::to_string(boards_.size()) + " at " + hex_string(entry_at));
    for (const auto& image : board.images) {
      if (image.data_offset > data_unpacked_size_ ||
          image.data_size > data_unpacked_size_ - image.data_offset)
        return make_error(ErrorCode::InvalidImage,
                          "board " + board.psid + ": image at DATA offset " + hex_string(image.data_offset) +
                              " + " + hex_string(image.data_size) + " bytes is past the end of DATA (" +
                              hex_string(data_unpacked_size_) + " bytes unpacked)");
    }
    boards_.push_back(std::move(board));
  }
  return check_data_coverage();
}

// Every real archive (19, 6-91 entries, 201 MB-1.52 GB unpacked) lays its TOC entries end to
// end from DATA offset 0: no overlap, no gap, DATA exactly as long as their sum. Bytes no
// entry owns would only be decoded to be thrown away, so at most kMaxUnownedDataPerEntry of
// them per entry are accepted; the rest of DATA (and hence any decoding) is entries' bytes.
Result<void> MfaArchive::check_data_coverage() const {
  std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> entries;  // by TOC offset
  for (const auto& board : boards_)
    for (const auto& image : board.images)
      entries.emplace(image.toc_offset, std::make_pair(image.data_offset, image.data_offset + image.data_size));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const auto& [toc_offset, range] : entries) ranges.push_back(range);
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t owned = 0;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (i > 0 && ranges[i].first < ranges[i - 1].second)
      return make_error(ErrorCode::InvalidImage,
                        "TOC entries overlap in DATA: " + hex_string(ranges[i - 1].first) + ".." +
                            hex_string(ranges[i - 1].second) + " and " + hex_string(ranges[i].first) + ".." +
                            hex_string(ranges[i].second));
    owned += ranges[i].second - ranges[i].first;
  }
  const std::uint64_t allowed = owned + kMaxUnownedDataPerEntry * std::max<std::uint64_t>(ranges.size(), 1);
  if (data_unpacked_size_ > allowed)
    return make_error(ErrorCode::InvalidImage,
                      "section DATA unpacks to " + std::to_string(data_unpacked_size_) + " bytes, but its " +
                          std::to_string(ranges.size()) + " TOC entries hold only " + std::to_string(owned) +
                          " (at most " + std::to_string(kMaxUnownedDataPerEntry) +
                          " bytes per entry may belong to none)");
  return {};
}

Result<const MfaBoard*> MfaArchive::find_board(std::string_view psid) const {
  for (const auto& board : boards_)
    if (board.psid == psid) return &board;
  return make_error(ErrorCode::NotFound, "no board with PSID " + std::string(psid) + " in the archive");
}

Result<const MfaBoard*> MfaArchive::find_board(std::string_view psid, std::uint64_t max_image_size) const {
  OF_ASSIGN(const MfaBoard* board, find_board(psid));
  if (const MfaImageRef* fw = board->firmware(); fw != nullptr && fw->data_size > max_image_size)
    return make_error(ErrorCode::InvalidImage, "board " + std::string(psid) + "'s image is " +
                                                   std::to_string(fw->data_size) + " bytes, larger than any flash (" +
                                                   std::to_string(max_image_size) + " bytes)");
  return board;
}

}  // namespace openflint
