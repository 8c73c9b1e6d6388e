// Fs1PointerSector: reading and writing FS1 pointer sectors and the invariant sector size.
#include "image/Fs1PointerSector.h"

#include <algorithm>

#include "image/Crc16.h"

namespace openflint::fs1 {
namespace {

// VSD/PSID bytes are stored with each dword byte-reversed (flint "VSD is kept on flash
// byte-swapped").
void swap_dwords(std::uint8_t* p, std::size_t len) {
  for (std::size_t i = 0; i + 4 <= len; i += 4) std::reverse(p + i, p + i + 4);
}

std::string unswapped_text(Bytes field) {
  std::array<std::uint8_t, 208> buf{};
  std::copy(field.begin(), field.end(), buf.begin());
  swap_dwords(buf.data(), field.size());
  std::string out;
  for (std::size_t i = 0; i < field.size() && buf[i] != 0; ++i) out.push_back(static_cast<char>(buf[i]));
  return out;
}

}  // namespace

Result<PointerSector> read_pointer_sector(Bytes data, std::uint64_t at) {
  const ByteReader r(data);
  OF_ASSIGN_CTX(const Bytes raw, r.slice(at, kPsSize), "pointer sector");
  const std::uint8_t* p = raw.data();
  PointerSector ps;
  ps.fi_addr = ByteReader::load_be32(p);
  ps.fi_size = ByteReader::load_be32(p + 4);
  ps.signature = ByteReader::load_be32(p + 8);
  ps.vsd = unswapped_text(raw.subspan(kPsVsdOffset, kPsPsidOffset - kPsVsdOffset));
  ps.psid = unswapped_text(raw.subspan(kPsPsidOffset, kPsBranchOffset - kPsPsidOffset));
  ps.stored_crc = ByteReader::load_be32(p + kPsCrcOffset);
  ps.computed_crc = crc16(raw.first(kPsCrcOffset));
  return ps;
}

std::array<std::uint8_t, kPsSize> make_pointer_sector(std::uint32_t fi_addr, std::uint32_t fi_size,
                                                      const std::string& vsd, const std::string& psid) {
  std::array<std::uint8_t, kPsSize> ps{};
  store_be32(ps.data(), fi_addr);
  store_be32(ps.data() + 4, fi_size);
  store_be32(ps.data() + 8, kSignature);
  std::copy_n(vsd.begin(), std::min<std::size_t>(vsd.size(), kPsPsidOffset - kPsVsdOffset), ps.begin() + kPsVsdOffset);
  std::copy_n(psid.begin(), std::min<std::size_t>(psid.size(), kPsBranchOffset - kPsPsidOffset), ps.begin() + kPsPsidOffset);
  swap_dwords(ps.data() + kPsVsdOffset, kPsBranchOffset - kPsVsdOffset);
  store_be32(ps.data() + kPsCrcOffset, crc16(Bytes(ps).first(kPsCrcOffset)));
  return ps;
}

Result<unsigned> read_log2_sector_size(Bytes data, std::uint64_t offset) {
  const ByteReader r(data);
  OF_ASSIGN(const std::uint32_t ptr, r.be32(offset + kInvLog2PtrOffset));
  OF_ASSIGN(const std::uint32_t log2, r.be32(offset + 0x30 + (ptr & 0xffff)));
  const unsigned value = log2 & 0xffff;
  if (value < 12 || value > 24)
    return make_error(ErrorCode::InvalidImage,
                      "invariant sector: log2 sector size " + std::to_string(value) + " out of range 12..24");
  return value;
}

}  // namespace openflint::fs1
