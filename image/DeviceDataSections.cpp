// DeviceDataSections: DEV_INFO and MFG_INFO contents.
#include "image/DeviceDataSections.h"

#include <algorithm>

#include "core/ByteReader.h"

namespace openflint {
namespace {

// A uid entry: {[15:8] step 1, [7:0] count, 0, uid[63:32], uid[31:0]}.
void put_uids(std::vector<std::uint8_t>& v, std::size_t at, std::uint64_t uid, std::uint8_t count) {
  store_be32(&v[at], 0x100u | count);
  store_be32(&v[at + 8], static_cast<std::uint32_t>(uid >> 32));
  store_be32(&v[at + 12], static_cast<std::uint32_t>(uid));
}

void put_chars(std::vector<std::uint8_t>& buf, std::size_t at, const std::string& s) {
  std::copy(s.begin(), s.end(), buf.begin() + static_cast<std::ptrdiff_t>(at));
}

}  // namespace

std::vector<std::uint8_t> build_dev_info(const DeviceDataIdentity& id) {
  std::vector<std::uint8_t> v(0x200, 0);
  const std::uint32_t signature[4] = {0x6d446576, 0x496e666f, 0x2342cafa, 0xbacafe00};  // "mDevInfo"
  for (int i = 0; i < 4; ++i) store_be32(&v[4 * i], signature[i]);
  store_be32(&v[0x10], 0x200);  // layout version 2.0
  put_uids(v, 0x20, id.base_guid, id.guid_count);
  put_uids(v, 0x30, id.base_mac, id.mac_count);
  return v;
}

std::vector<std::uint8_t> build_mfg_info(const DeviceDataIdentity& id) {
  std::vector<std::uint8_t> v(0x140, 0);
  put_chars(v, 0, id.psid);
  store_be32(&v[0x1c], 0x01010001);  // layout version 1.1, guids_override_en
  put_uids(v, 0x20, id.base_guid, id.guid_count);
  put_uids(v, 0x30, id.base_mac, id.mac_count);
  put_chars(v, 0x60, id.prs_name);
  return v;
}

}  // namespace openflint
