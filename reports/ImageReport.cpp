// Report: text (mstflint's layout, so habits and scripts carry over) and JSON renderings.
#include "core/HexString.h"
#include "reports/ImageReport.h"

#include <cstdio>
#include <optional>
#include <ostream>
#include <vector>

namespace openflint::reports {
namespace {

std::string or_na(const std::string& s) { return s.empty() ? "N/A" : s; }

std::string uid_text(const std::optional<UidRange>& uid, int width = 16) {
  if (!uid) return "N/A";
  return hex(uid->base, width) + "  " + std::to_string(uid->count);
}

nlohmann::json uid_json(const std::optional<UidRange>& uid) {
  if (!uid) return nullptr;
  return {{"base", hex(uid->base, 16)}, {"count", uid->count}};
}

template <typename T, typename F>
nlohmann::json opt(const std::optional<T>& v, F f) {
  return v ? nlohmann::json(f(*v)) : nlohmann::json(nullptr);
}

// FS1/FS2 GUID-section entries: GUIDs first (FS2: node, port 1, port 2, system image), then
// the MACs. Split only when the base/count summary would misstate them (a switch's port
// GUIDs are 0: docs/legacy-devices.md, SwitchX).
struct UidLists {
  std::vector<std::uint64_t> guids, macs;
};

std::optional<UidLists> uid_lists(const ImageQuery& q) {
  if (q.uids.empty() || !q.base_guid) return std::nullopt;
  const std::size_t n_guids = std::min<std::size_t>(q.base_guid->count, q.uids.size());
  UidLists l;
  l.guids.assign(q.uids.begin(), q.uids.begin() + static_cast<std::ptrdiff_t>(n_guids));
  l.macs.assign(q.uids.begin() + static_cast<std::ptrdiff_t>(n_guids), q.uids.end());
  bool consecutive = true;
  for (std::size_t i = 0; i < l.guids.size(); ++i) consecutive = consecutive && l.guids[i] == q.base_guid->base + i;
  for (std::size_t i = 0; q.base_mac && i < l.macs.size(); ++i)
    consecutive = consecutive && l.macs[i] == q.base_mac->base + i;
  if (consecutive) return std::nullopt;
  return l;
}

std::string hex_list(const std::vector<std::uint64_t>& values, int width) {
  std::string text;
  for (const auto v : values) text += (text.empty() ? "" : " ") + hex(v, width);
  return text;
}

}  // namespace

void field(std::ostream& out, const char* name, const std::string& value) {
  std::string label = std::string(name) + ":";
  label.resize(std::max<std::size_t>(label.size() + 1, 23), ' ');
  out << label << value << '\n';
}


std::string hex(std::uint64_t value, int width) { return hex_string(value, width); }

void print_query(std::ostream& out, const ImageQuery& q) {
  field(out, "Image type", std::string(to_string(q.format)));
  if (q.issu_version) field(out, "FW ISSU Version", std::to_string(*q.issu_version));
  field(out, "FW Version", q.fw_version ? q.fw_version->to_string() : "N/A");
  field(out, "FW Release Date", q.release_date ? q.release_date->to_string() : "N/A");
  if (!q.product_version.empty()) field(out, "Product Version", q.product_version);
  if (!q.description.empty()) field(out, "Description", q.description);
  field(out, "Base GUID", uid_text(q.base_guid));
  field(out, "Base MAC", uid_text(q.base_mac, 12));
  if (const auto lists = uid_lists(q)) {
    field(out, "GUIDs", hex_list(lists->guids, 16));
    if (!lists->macs.empty()) field(out, "MACs", hex_list(lists->macs, 12));
  }
  field(out, "Image VSD", or_na(q.image_vsd));
  if (!q.device_vsd.empty()) field(out, "Device VSD", q.device_vsd);
  field(out, "PSID", or_na(q.psid));
  if (!q.supported_hw_ids.empty()) {
    std::string ids;
    for (auto id : q.supported_hw_ids) ids += (ids.empty() ? "" : " ") + hex(id);
    field(out, "Supported HW IDs", ids);
  }
  if (q.security_version) field(out, "Security Ver", std::to_string(*q.security_version));
}

nlohmann::json query_json(const ImageQuery& q) {
  nlohmann::json hw = nlohmann::json::array();
  for (auto id : q.supported_hw_ids) hw.push_back(hex(id));
  nlohmann::json j = {
      {"image_type", std::string(to_string(q.format))},
      {"image_start", hex(q.image_start)},
      {"failsafe", q.failsafe},
      {"fw_version", opt(q.fw_version, [](const FwVersion& v) { return v.to_string(); })},
      {"issu_version", opt(q.issu_version, [](std::uint32_t v) { return v; })},
      {"release_date", opt(q.release_date, [](const ReleaseDate& d) { return d.to_string(); })},
      {"psid", q.psid},
      {"description", q.description},
      {"product_version", q.product_version},
      {"name", q.name},
      {"image_vsd", q.image_vsd},
      {"device_vsd", q.device_vsd},
      {"pci_vendor_id", opt(q.pci_vendor_id, [](std::uint16_t v) { return hex(v, 4); })},
      {"pci_device_id", opt(q.pci_device_id, [](std::uint16_t v) { return hex(v, 4); })},
      {"supported_hw_ids", hw},
      {"base_guid", uid_json(q.base_guid)},
      {"base_mac", uid_json(q.base_mac)},
      {"security_version", opt(q.security_version, [](std::uint32_t v) { return v; })},
      {"image_size", q.image_size},
      {"component_update", q.mcc_enabled},  // IMAGE_INFO mcc_en: its firmware takes images (MCC)
  };
  if (const auto lists = uid_lists(q)) {
    nlohmann::json guids = nlohmann::json::array(), macs = nlohmann::json::array();
    for (const auto g : lists->guids) guids.push_back(hex(g, 16));
    for (const auto m : lists->macs) macs.push_back(hex(m, 12));
    j["guids"] = guids;
    j["macs"] = macs;
  }
  return j;
}

void print_verify(std::ostream& out, const VerifyReport& report) {
  out << '\n' << report.layout << "\n\n";
  for (const auto& s : report.sections) {
    char range[64];
    std::snprintf(range, sizeof range, "/0x%08llx-0x%08llx (0x%06llx)/",
                  static_cast<unsigned long long>(s.start),
                  static_cast<unsigned long long>(s.start + s.size - 1),
                  static_cast<unsigned long long>(s.size));
    out << "     " << range << " (" << s.name << ") - " << to_string(s.status);
    if (!s.detail.empty()) out << " (" << s.detail << ")";
    out << '\n';
  }
  for (const auto& p : report.problems) out << "-E- " << p << '\n';
  for (const auto& w : report.warnings) out << "-W- " << w << '\n';
  out << '\n';
  if (report.bootable())
    out << "-I- FW image verification succeeded. Image is bootable.\n";
  else
    out << "-E- FW image verification failed. Image is NOT bootable.\n";
}

nlohmann::json verify_json(const VerifyReport& report) {
  nlohmann::json sections = nlohmann::json::array();
  for (const auto& s : report.sections) {
    sections.push_back({{"name", s.name},
                        {"start", hex(s.start, 8)},
                        {"size", s.size},
                        {"status", to_string(s.status)},
                        {"detail", s.detail}});
  }
  return {{"image_type", std::string(to_string(report.format))},
          {"image_start", hex(report.image_start)},
          {"layout", report.layout},
          {"bootable", report.bootable()},
          {"sections", sections},
          {"problems", report.problems},
          {"warnings", report.warnings}};
}

void print_boards(std::ostream& out, const MfaArchive& archive) {
  char line[512];
  std::snprintf(line, sizeof line, "%-20s %-28s %-14s %s\n", "PSID", "Part number", "FW version",
                "Description");
  out << line;
  for (const auto& b : archive.boards()) {
    std::snprintf(line, sizeof line, "%-20s %-28s %-14s %s\n", b.psid.c_str(),
                  b.part_number.c_str(),
                  b.fw_version ? b.fw_version->to_string().c_str() : "N/A",
                  b.description.c_str());
    out << line;
  }
}

nlohmann::json boards_json(const MfaArchive& archive) {
  nlohmann::json boards = nlohmann::json::array();
  for (const auto& b : archive.boards()) {
    const MfaImageRef* fw = b.firmware();
    boards.push_back({{"psid", b.psid},
                      {"part_number", b.part_number},
                      {"description", b.description},
                      {"fw_version", opt(b.fw_version, [](const FwVersion& v) { return v.to_string(); })},
                      {"image_size", fw != nullptr ? fw->data_size : 0}});
  }
  return {{"boards", boards}, {"crc32", hex(archive.stored_crc(), 8)}};
}


nlohmann::json verify_document(const VerifyReport& report, bool ok) {
  nlohmann::json doc = verify_json(report);
  doc["ok"] = ok;
  return doc;
}

}  // namespace openflint::reports
