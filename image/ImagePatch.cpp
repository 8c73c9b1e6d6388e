// ImagePatch: input checks and the dispatch of sg / sv to the image's format.
#include "image/ImagePatch.h"

#include <cstdio>

#include "image/FirmwareImage.h"
#include "image/FormatPatch.h"
#include "image/FormatTable.h"
#include "image/GphSections.h"

namespace openflint {
namespace {

std::string mac_text(std::uint64_t mac) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(mac));
  return buf;
}

Result<void> check_settings(const GuidSettings& s) {
  if (!s.base_mac) return {};
  if (*s.base_mac >> 48)
    return make_error(ErrorCode::InvalidArgument, "base MAC " + mac_text(*s.base_mac) + " has more than 48 bits");
  if ((*s.base_mac >> 40) & 1)
    return make_error(ErrorCode::InvalidArgument,
                      "base MAC " + mac_text(*s.base_mac) + " has the multicast bit (bit 40) set");
  return {};
}

}  // namespace

Result<std::vector<std::uint8_t>> set_guids(Bytes data, const GuidSettings& settings,
                                            const UidAllocation& allocation) {
  OF_TRY(check_settings(settings));
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  std::vector<std::uint8_t> out(data.begin(), data.end());
  OF_TRY(format_ops(loc.format).set_identity(out, loc.offset, &settings, allocation, nullptr));
  return out;
}

Result<std::vector<std::uint8_t>> set_uid_entries(Bytes data, std::span<const std::uint64_t> uids) {
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  const auto set_uids = format_ops(loc.format).set_uids;
  if (set_uids == nullptr)
    return make_error(ErrorCode::NotSupported, std::string(to_string(loc.format)) +
                                                   " images keep GUIDs/MACs in device data, not a GUID section");
  std::vector<std::uint8_t> out(data.begin(), data.end());
  OF_TRY(set_uids(out, loc.offset, uids));
  return out;
}

Result<std::vector<std::uint8_t>> set_vsd(Bytes data, const std::string& vsd) {
  OF_TRY(gph::check_text(vsd, kMaxVsdLength, "VSD"));
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  std::vector<std::uint8_t> out(data.begin(), data.end());
  OF_TRY(format_ops(loc.format).set_identity(out, loc.offset, nullptr, {}, &vsd));
  return out;
}

Result<std::vector<std::uint8_t>> set_identity(Bytes data, const std::optional<GuidSettings>& guids,
                                               const std::optional<std::string>& vsd) {
  if (guids) {
    OF_TRY(check_settings(*guids));
  }
  if (vsd) {
    OF_TRY(gph::check_text(*vsd, kMaxVsdLength, "VSD"));
  }
  OF_ASSIGN(const ImageLocation loc, locate_image(data));
  std::vector<std::uint8_t> out(data.begin(), data.end());
  OF_TRY(format_ops(loc.format).set_identity(out, loc.offset, guids ? &*guids : nullptr, {}, vsd ? &*vsd : nullptr));
  return out;
}

}  // namespace openflint
