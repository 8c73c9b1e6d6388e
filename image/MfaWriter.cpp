// MfaWriter: lays out MAP, TOC and DATA, compresses them and appends the CRC32 trailer.
#include "image/MfaWriter.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "core/ByteReader.h"
#include "image/MfaFormat.h"
#include "image/XzStream.h"

namespace openflint {
namespace {

constexpr std::uint64_t kMaxDataOffset = std::uint64_t{1} << 48;

void put_u8(std::vector<std::uint8_t>& out, std::uint8_t v) { out.push_back(v); }
void put_be16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.resize(out.size() + 2);
  store_be16(out.data() + out.size() - 2, v);
}
void put_be32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.resize(out.size() + 4);
  store_be32(out.data() + out.size() - 4, v);
}
void put_fixed(std::vector<std::uint8_t>& out, const std::string& s, std::size_t size) {
  const std::size_t at = out.size();
  out.resize(at + size, 0);
  std::memcpy(out.data() + at, s.data(), std::min(s.size(), size));
}

// {u8 version, u8 rsvd, u16 count} + "key\0value\0"..., zero-padded to 4 bytes.
std::vector<std::uint8_t> metadata_block(const MfaBoardSpec& board) {
  std::vector<std::uint8_t> out;
  put_u8(out, mfa::kMetadataVersion);
  put_u8(out, 0);
  put_be16(out, 2);
  const std::string pairs[] = {"PN", board.part_number, "DESCRIPTION", board.description};
  for (const auto& s : pairs) {
    out.insert(out.end(), s.begin(), s.end());
    out.push_back(0);
  }
  out.resize((out.size() + 3) / 4 * 4, 0);
  return out;
}

void put_section(std::vector<std::uint8_t>& out, std::uint8_t type, bool xz,
                 const std::vector<std::uint8_t>& payload) {
  put_u8(out, type);
  put_u8(out, 0);
  put_u8(out, 0);
  put_u8(out, xz ? mfa::kSectionFlagXz : 0);
  put_be32(out, static_cast<std::uint32_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
}

}  // namespace

Result<void> MfaWriter::add_board(MfaBoardSpec board) {
  const std::string what = "board " + board.psid;
  if (board.psid.empty() || board.psid.size() >= mfa::kPsidSize)
    return make_error(ErrorCode::InvalidArgument, what + ": PSID must be 1..31 characters");
  if (board.psid.find('\0') != std::string::npos || board.part_number.find('\0') != std::string::npos ||
      board.description.find('\0') != std::string::npos)
    return make_error(ErrorCode::InvalidArgument, what + ": text fields must not contain NUL");
  if (metadata_block(board).size() > 0xffff)
    return make_error(ErrorCode::InvalidArgument, what + ": metadata exceeds 65535 bytes");
  if (board.image.size() > 0xffffffffu)
    return make_error(ErrorCode::InvalidArgument, what + ": image exceeds 4 GiB");
  if (data_size_ + board.image.size() > kMaxDataOffset)
    return make_error(ErrorCode::InvalidArgument, what + ": DATA would exceed 2^48 bytes");
  data_size_ += board.image.size();
  boards_.push_back(std::move(board));
  return {};
}

std::vector<std::uint8_t> MfaWriter::map_table() const {
  std::vector<std::uint8_t> map;
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    const std::vector<std::uint8_t> metadata = metadata_block(boards_[i]);
    put_fixed(map, boards_[i].psid, mfa::kPsidSize);
    put_u8(map, 1);  // one image
    put_u8(map, 0);
    put_be16(map, static_cast<std::uint16_t>(metadata.size()));
    map.insert(map.end(), metadata.begin(), metadata.end());
    put_be32(map, static_cast<std::uint32_t>(i * mfa::kTocEntryHeaderSize));
    put_be16(map, mfa::kImageTypeFirmware);
    put_u8(map, 0);
    put_u8(map, 1);  // group 1, as in the vendor archives
    put_fixed(map, "", mfa::kSelectTagSize);
  }
  return map;
}

std::vector<std::uint8_t> MfaWriter::toc_table() const {
  std::vector<std::uint8_t> toc;
  std::uint64_t offset = 0;
  for (const auto& board : boards_) {
    put_be32(toc, static_cast<std::uint32_t>(offset));
    put_be32(toc, static_cast<std::uint32_t>(board.image.size()));
    put_be16(toc, 1);  // subimage type, as in the vendor archives
    put_u8(toc, 0);
    put_u8(toc, 3);  // version fields used
    put_be16(toc, board.version.major);
    put_be16(toc, board.version.minor);
    put_be16(toc, board.version.subminor);
    put_be16(toc, 0);
    put_be16(toc, static_cast<std::uint16_t>(offset >> 32));
    put_be16(toc, 0);  // no TOC metadata
    offset += board.image.size();
  }
  return toc;
}

Result<std::vector<std::uint8_t>> MfaWriter::build() const {
  std::vector<std::uint8_t> data;
  data.reserve(data_size_);
  for (const auto& board : boards_) data.insert(data.end(), board.image.begin(), board.image.end());
  std::vector<std::uint8_t> tables[3] = {map_table(), toc_table(), std::move(data)};
  if (options_.compress) {
    for (auto& table : tables) {
      OF_ASSIGN(table, xz_compress(table, options_.xz_preset));
    }
  }
  std::vector<std::uint8_t> out(mfa::kMagic, mfa::kMagic + sizeof mfa::kMagic);
  put_be32(out, mfa::kVersion);
  out.resize(mfa::kHeaderSize, 0);
  for (std::uint8_t type = mfa::kSectionMap; type <= mfa::kSectionData; ++type) {
    const auto& payload = tables[type - mfa::kSectionMap];
    if (payload.size() > 0xffffffffu)
      return make_error(ErrorCode::InvalidArgument, "section payload exceeds 4 GiB");
    put_section(out, type, options_.compress, payload);
  }
  put_be32(out, static_cast<std::uint32_t>(crc32_z(crc32_z(0, nullptr, 0), out.data(), out.size())));
  return out;
}

Result<void> MfaWriter::write_file(const std::string& path) const {
  OF_ASSIGN(const std::vector<std::uint8_t> bytes, build());
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!file) return make_error(ErrorCode::Io, "cannot write " + path + ": " + std::strerror(errno));
  return {};
}

}  // namespace openflint
