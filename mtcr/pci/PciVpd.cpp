// PciVpd: VPD resource tags and keywords; reading them from sysfs or the config-space capability.
#include "mtcr/pci/PciVpd.h"

#include <chrono>
#include <fstream>
#include <thread>

#include "core/HexString.h"
#include "mtcr/pci/PciConfigFile.h"

namespace openflint {
namespace {

constexpr std::uint8_t kTagId = 0x02;
constexpr std::uint8_t kTagReadOnly = 0x10;
constexpr std::uint8_t kTagWritable = 0x11;
constexpr std::uint8_t kTagEnd = 0x0f;
constexpr std::uint8_t kVpdCapabilityId = 0x03;
constexpr std::uint32_t kVpdFlag = 0x80000000u;

Unexpected bad(const std::string& what) { return make_error(ErrorCode::InvalidImage, "VPD: " + what); }

Result<void> parse_keywords(std::span<const std::uint8_t> area, std::size_t area_offset, bool writable,
                            std::span<const std::uint8_t> all, PciVpd& out) {
  std::size_t at = 0;
  while (at < area.size()) {
    if (at + 3 > area.size()) return bad("a keyword header runs past its area at " + hex_string(area_offset + at));
    VpdKeyword k;
    k.name = std::string{static_cast<char>(area[at]), static_cast<char>(area[at + 1])};
    const std::size_t len = area[at + 2];
    if (at + 3 + len > area.size()) return bad("keyword " + k.name + " runs past its area");
    k.data.assign(area.begin() + static_cast<std::ptrdiff_t>(at + 3),
                  area.begin() + static_cast<std::ptrdiff_t>(at + 3 + len));
    k.writable = writable;
    if (!writable && k.name == "RV" && len >= 1) {
      std::uint8_t sum = 0;
      for (std::size_t i = 0; i <= area_offset + at + 3; ++i) sum = static_cast<std::uint8_t>(sum + all[i]);
      out.checksum_ok = sum == 0;
    }
    out.keywords.push_back(std::move(k));
    at += 3 + len;
  }
  return {};
}

}  // namespace

Result<PciVpd> parse_pci_vpd(std::span<const std::uint8_t> bytes) {
  PciVpd out;
  bool have_id = false, have_ro = false;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::uint8_t b = bytes[at];
    if ((b & 0x80) == 0) {  // small resource
      if ((b >> 3) != kTagEnd) return bad("unknown small tag " + hex_string(b >> 3) + " at " + hex_string(at));
      if (!have_id || !have_ro) return bad(have_id ? "no read-only keywords (VPD-R)" : "no identifier string");
      out.size = at + 1 + (b & 7);
      return out;
    }
    if (at + 3 > bytes.size()) return bad("a tag header runs past the data at " + hex_string(at));
    const std::uint8_t name = b & 0x7f;
    const std::size_t len = bytes[at + 1] | std::size_t{bytes[at + 2]} << 8;
    if (at + 3 + len > bytes.size()) return bad("tag " + hex_string(name) + " at " + hex_string(at) + " runs past the data");
    const auto body = bytes.subspan(at + 3, len);
    if (name == kTagId) {
      out.id.assign(body.begin(), body.end());
      have_id = true;
    } else if (name == kTagReadOnly || name == kTagWritable) {
      if (name == kTagReadOnly) have_ro = true;
      OF_TRY(parse_keywords(body, at + 3, name == kTagWritable, bytes, out));
    } else {
      return bad("unknown large tag " + hex_string(name) + " at " + hex_string(at));
    }
    at += 3 + len;
  }
  return bad("no end tag");
}

std::vector<std::uint8_t> encode_pci_vpd(std::string_view id,
                                         std::span<const std::pair<std::string, std::string>> keywords) {
  std::vector<std::uint8_t> out;
  auto large = [&](std::uint8_t name, std::size_t len) {
    out.push_back(static_cast<std::uint8_t>(0x80 | name));
    out.push_back(static_cast<std::uint8_t>(len & 0xff));
    out.push_back(static_cast<std::uint8_t>(len >> 8));
  };
  large(kTagId, id.size());
  out.insert(out.end(), id.begin(), id.end());
  std::size_t ro = 4;  // RV with its checksum byte
  for (const auto& [name, text] : keywords) ro += 3 + text.size();
  large(kTagReadOnly, ro);
  for (const auto& [name, text] : keywords) {
    out.insert(out.end(), name.begin(), name.begin() + 2);
    out.push_back(static_cast<std::uint8_t>(text.size()));
    out.insert(out.end(), text.begin(), text.end());
  }
  out.insert(out.end(), {'R', 'V', 1});
  std::uint8_t sum = 0;
  for (const std::uint8_t b : out) sum = static_cast<std::uint8_t>(sum + b);
  out.push_back(static_cast<std::uint8_t>(0x100 - sum));
  out.push_back(static_cast<std::uint8_t>(kTagEnd << 3));
  return out;
}

// Through the capability: 4 bytes per cycle, until the end tag.
Result<std::vector<std::uint8_t>> read_pci_vpd_through_capability(const std::filesystem::path& device_dir) {
  OF_ASSIGN(const auto config, read_pci_config(device_dir));
  const std::uint32_t cap = find_pci_capability(config, kVpdCapabilityId);
  if (cap == 0) return make_error(ErrorCode::NotSupported, device_dir.filename().string() + " has no VPD capability");
  const std::uint32_t low = config_dword(config, cap) & 0xffff;
  std::vector<std::uint8_t> out;
  for (std::uint32_t address = 0; address < kMaxVpdBytes; address += 4) {
    OF_TRY(write_pci_config32(device_dir, cap, low | address << 16));
    std::uint32_t flag = 0;
    std::vector<std::uint8_t> now;
    for (int poll = 0; poll < 100 && (flag & kVpdFlag) == 0; ++poll) {
      OF_ASSIGN(now, read_pci_config(device_dir));
      flag = config_dword(now, cap);
      if ((flag & kVpdFlag) == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    if ((flag & kVpdFlag) == 0)
      return make_error(ErrorCode::Timeout, "VPD read at " + hex_string(address) + " did not complete");
    const std::uint32_t data = config_dword(now, cap + 4);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(data >> (8 * i)));
    if (auto parsed = parse_pci_vpd(out)) {
      out.resize(parsed->size);
      return out;
    }
  }
  return bad("no end tag in " + std::to_string(kMaxVpdBytes) + " bytes");
}

Result<std::vector<std::uint8_t>> read_pci_vpd(const std::filesystem::path& device_dir) {
  std::ifstream in(device_dir / "vpd", std::ios::binary);
  if (!in) return read_pci_vpd_through_capability(device_dir);
  std::vector<std::uint8_t> bytes;
  char chunk[256];
  while (bytes.size() < kMaxVpdBytes && in.read(chunk, sizeof chunk).gcount() > 0) {
    bytes.insert(bytes.end(), chunk, chunk + in.gcount());
    if (auto parsed = parse_pci_vpd(bytes)) {
      bytes.resize(parsed->size);
      return bytes;
    }
  }
  OF_TRY(parse_pci_vpd(bytes));  // the reason it is not VPD
  return bytes;
}

std::string vpd_text(const VpdKeyword& keyword, bool* binary) {
  bool printable = true;
  for (const std::uint8_t b : keyword.data) printable = printable && b >= 0x20 && b < 0x7f;
  if (binary != nullptr) *binary = !printable;
  if (printable) return std::string(keyword.data.begin(), keyword.data.end());
  return hex_digits(keyword.data);
}

}  // namespace openflint
