// PldmWriter: the DSP0267 1.0 layout the kernel's lib/pldmfw, mstflint and our reader take.
#include "image/PldmWriter.h"

#include <ctime>
#include <set>

#include "image/Crc32.h"
#include "image/PldmFormat.h"

namespace openflint {
namespace {

void pldm_put_le16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}

void pldm_put_le32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void pldm_put_text(std::vector<std::uint8_t>& out, const std::string& text) { out.insert(out.end(), text.begin(), text.end()); }

// timestamp104 (DSP0240): UTC offset 0, microseconds 0, then second..year, resolution byte 0.
void pldm_put_timestamp(std::vector<std::uint8_t>& out, std::int64_t unix_time) {
  std::tm tm{};
  const auto t = static_cast<std::time_t>(unix_time);
  if (unix_time == 0 || gmtime_r(&t, &tm) == nullptr) {
    out.insert(out.end(), pldm::kTimestampSize, 0);
    return;
  }
  out.insert(out.end(), 5, 0);
  for (const int v : {tm.tm_sec, tm.tm_min, tm.tm_hour, tm.tm_mday, tm.tm_mon + 1}) out.push_back(static_cast<std::uint8_t>(v));
  pldm_put_le16(out, static_cast<std::uint16_t>(tm.tm_year + 1900));
  out.push_back(0);
}

Result<void> check_pldm_inputs(const std::vector<PldmInput>& inputs) {
  if (inputs.empty()) return make_error(ErrorCode::InvalidArgument, "a PLDM package needs at least one image");
  if (inputs.size() > 255)
    return make_error(ErrorCode::InvalidArgument, "a PLDM package holds at most 255 device records (" +
                                                      std::to_string(inputs.size()) + " images given)");
  std::set<std::string> seen;
  for (const auto& in : inputs) {
    if (in.psid.empty() || in.psid.size() > 200)
      return make_error(ErrorCode::InvalidArgument, "PSID '" + in.psid + "' is empty or longer than 200 bytes");
    if (in.version.size() > 200)
      return make_error(ErrorCode::InvalidArgument, "the version of " + in.psid + " is longer than 200 bytes");
    if (!seen.insert(in.psid).second) return make_error(ErrorCode::InvalidArgument, "PSID " + in.psid + " is given twice");
    if (in.image.empty()) return make_error(ErrorCode::InvalidArgument, "the image for " + in.psid + " is empty");
  }
  return {};
}

std::string pldm_version_of(const PldmInput& in) { return in.version.empty() ? "unknown" : in.version; }

// The record of input `i` of `count`: descriptors {PCI vendor, PSID}, bitmap naming component i only.
std::vector<std::uint8_t> pldm_device_record(const PldmInput& in, std::size_t i, std::size_t bitmap_bytes) {
  const std::string version = pldm_version_of(in);
  std::vector<std::uint8_t> descriptors;
  pldm_put_le16(descriptors, pldm::kDescPciVendorId);
  pldm_put_le16(descriptors, 2);
  pldm_put_le16(descriptors, pldm::kPciVendorMellanox);
  std::vector<std::uint8_t> psid = {pldm::kStringAscii, static_cast<std::uint8_t>(sizeof pldm::kNvidiaPsidTitle - 1)};
  pldm_put_text(psid, pldm::kNvidiaPsidTitle);
  pldm_put_text(psid, in.psid);
  psid.push_back(0);  // mstflint reads the value as a C string
  pldm_put_le16(descriptors, pldm::kDescVendorDefined);
  pldm_put_le16(descriptors, static_cast<std::uint16_t>(psid.size()));
  descriptors.insert(descriptors.end(), psid.begin(), psid.end());

  std::vector<std::uint8_t> record;
  const std::size_t length = pldm::kRecordFixedSize + bitmap_bytes + version.size() + descriptors.size();
  pldm_put_le16(record, static_cast<std::uint16_t>(length));
  record.push_back(2);    // descriptors
  pldm_put_le32(record, 0);    // device update option flags
  record.push_back(pldm::kStringAscii);
  record.push_back(static_cast<std::uint8_t>(version.size()));
  pldm_put_le16(record, 0);    // no firmware device package data
  std::vector<std::uint8_t> bitmap(bitmap_bytes, 0);
  bitmap[i / 8] = static_cast<std::uint8_t>(1u << (i % 8));
  record.insert(record.end(), bitmap.begin(), bitmap.end());
  pldm_put_text(record, version);
  record.insert(record.end(), descriptors.begin(), descriptors.end());
  return record;
}

}  // namespace

Result<std::vector<std::uint8_t>> build_pldm(const std::vector<PldmInput>& inputs, const std::string& package_version,
                                             std::int64_t release_unix_time) {
  OF_TRY(check_pldm_inputs(inputs));
  std::string version = package_version;
  if (version.empty()) {
    std::set<std::string> versions;
    for (const auto& in : inputs) versions.insert(pldm_version_of(in));
    for (const auto& v : versions) version += (version.empty() ? "" : ",") + v;
  }
  if (version.size() > 255) version.resize(255);
  const std::size_t bitmap_bytes = (inputs.size() + 7) / 8;

  std::vector<std::uint8_t> out(pldm::kHeaderVersions[0].identifier.begin(), pldm::kHeaderVersions[0].identifier.end());
  out.push_back(pldm::kHeaderVersions[0].revision);
  pldm_put_le16(out, 0);  // header size, known once the component infos are laid out
  pldm_put_timestamp(out, release_unix_time);
  pldm_put_le16(out, static_cast<std::uint16_t>(bitmap_bytes * 8));
  out.push_back(pldm::kStringAscii);
  out.push_back(static_cast<std::uint8_t>(version.size()));
  pldm_put_text(out, version);
  out.push_back(static_cast<std::uint8_t>(inputs.size()));
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::vector<std::uint8_t> record = pldm_device_record(inputs[i], i, bitmap_bytes);
    out.insert(out.end(), record.begin(), record.end());
  }
  pldm_put_le16(out, static_cast<std::uint16_t>(inputs.size()));
  std::uint64_t infos = 0;
  for (const auto& in : inputs) infos += pldm::kComponentFixedSize + pldm_version_of(in).size();
  const std::uint64_t header_size = out.size() + infos + 4;
  if (header_size > 0xffff)
    return make_error(ErrorCode::InvalidArgument, "the package header would be " + std::to_string(header_size) +
                                                      " bytes, more than DSP0267's 65535: package fewer images");
  std::uint64_t offset = header_size;
  for (const auto& in : inputs) {
    if (offset + in.image.size() > 0xffffffffu)
      return make_error(ErrorCode::InvalidArgument, "the package would be larger than 4 GiB");
    const std::string v = pldm_version_of(in);
    pldm_put_le16(out, pldm::kClassificationSoftwareBundle);
    pldm_put_le16(out, pldm::kComponentFirmware);
    pldm_put_le32(out, pldm::kNoComparisonStamp);
    pldm_put_le16(out, pldm::kOptionForceUpdate);
    pldm_put_le16(out, pldm::kActivationNvidia);
    pldm_put_le32(out, static_cast<std::uint32_t>(offset));
    pldm_put_le32(out, static_cast<std::uint32_t>(in.image.size()));
    out.push_back(pldm::kStringAscii);
    out.push_back(static_cast<std::uint8_t>(v.size()));
    pldm_put_text(out, v);
    offset += in.image.size();
  }
  out[17] = static_cast<std::uint8_t>(header_size);
  out[18] = static_cast<std::uint8_t>(header_size >> 8);
  pldm_put_le32(out, crc32(out));
  for (const auto& in : inputs) out.insert(out.end(), in.image.begin(), in.image.end());
  return out;
}

}  // namespace openflint
