// SavedPciConfig: the text form of a saved configuration space, written atomically, read strictly.
#include "fwops/access/SavedPciConfig.h"

#include <cstdlib>
#include <map>
#include <optional>
#include <system_error>

#include "core/HexString.h"
#include "core/InputFile.h"
#include "core/NumberText.h"
#include "core/OutputFile.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFormatName = "openflint-pci-config";
constexpr unsigned kFormatVersion = 1;
constexpr std::size_t kMinSavedBytes = 64;    // the standard header
constexpr std::size_t kMaxSavedBytes = 4096;  // PCIe extended configuration space
constexpr std::uint64_t kMaxSavedFileBytes = 64 * 1024;  // 4096 bytes as text: about 13 KiB

std::uint16_t le16(const std::vector<std::uint8_t>& b, std::size_t at) {
  return at + 2 <= b.size() ? static_cast<std::uint16_t>(b[at] | b[at + 1] << 8) : 0;
}

std::string hex2(unsigned v) {
  static const char* const kDigits = "0123456789abcdef";
  return {kDigits[(v >> 4) & 0xf], kDigits[v & 0xf]};
}

// The row's offset as lspci prints it: at least two hex digits.
std::string row_offset(std::size_t offset) {
  std::string s = hex_string(offset).substr(2);
  return s.size() < 2 ? std::string(2 - s.size(), '0') + s : s;
}

Error bad_line(std::string_view origin, std::size_t line, const std::string& why) {
  return Error(ErrorCode::InvalidImage, std::string(origin) + ": line " + std::to_string(line) + ": " + why);
}

// "00: b3 15 ..." -> offset and 16 bytes; nullopt when the line is not such a row.
std::optional<std::pair<std::size_t, std::vector<std::uint8_t>>> parse_row(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 3) return std::nullopt;
  auto offset = parse_unsigned("0x" + std::string(line.substr(0, colon)), 0xfff, "offset");
  if (!offset) return std::nullopt;
  std::string_view rest = line.substr(colon + 1);
  std::vector<std::uint8_t> bytes;
  while (!rest.empty()) {
    if (rest.size() < 3 || rest[0] != ' ') return std::nullopt;
    auto byte = parse_unsigned("0x" + std::string(rest.substr(1, 2)), 0xff, "byte");
    if (!byte || rest.substr(1, 2).find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos)
      return std::nullopt;
    bytes.push_back(static_cast<std::uint8_t>(*byte));
    rest.remove_prefix(3);
  }
  if (bytes.size() != 16) return std::nullopt;
  return std::make_pair(static_cast<std::size_t>(*offset), std::move(bytes));
}

// The "key value" lines checked against the bytes they describe.
Result<void> check_keys(const std::map<std::string, std::string>& keys, const SavedPciConfig& c, std::string_view origin) {
  const std::map<std::string, std::string> expected{
      {"format", std::string(kFormatName) + " " + std::to_string(kFormatVersion)},
      {"address", c.address.to_string()},
      {"vendor", hex_string(c.vendor(), 4)},
      {"device", hex_string(c.device(), 4)},
      {"revision", hex_string(c.revision(), 2)},
      {"class", hex_string(c.class_code(), 6)},
      {"subsystem", hex_string(c.subsystem_vendor(), 4) + " " + hex_string(c.subsystem_device(), 4)},
      {"size", std::to_string(c.bytes.size())}};
  for (const auto& [key, want] : expected) {
    const auto it = keys.find(key);
    if (it == keys.end()) return make_error(ErrorCode::InvalidImage, std::string(origin) + ": no '" + key + "' line");
    if (it->second != want)
      return make_error(ErrorCode::InvalidImage, std::string(origin) + ": '" + key + " " + it->second +
                                                     "' disagrees with the saved bytes (" + want + ")");
  }
  return {};
}

}  // namespace

fs::path default_pci_save_dir() {
  const char* env = std::getenv("OPENFLINT_MST_SAVE_DIR");
  return env != nullptr && *env != '\0' ? fs::path(env) : fs::path("/var/mst_pci");
}

std::uint16_t SavedPciConfig::vendor() const { return le16(bytes, 0x00); }
std::uint16_t SavedPciConfig::device() const { return le16(bytes, 0x02); }
std::uint8_t SavedPciConfig::revision() const { return bytes.size() > 0x08 ? bytes[0x08] : 0; }
std::uint32_t SavedPciConfig::class_code() const {
  return bytes.size() > 0x0b ? std::uint32_t{bytes[0x09]} | std::uint32_t{bytes[0x0a]} << 8 | std::uint32_t{bytes[0x0b]} << 16 : 0;
}
std::uint16_t SavedPciConfig::subsystem_vendor() const { return le16(bytes, 0x2c); }
std::uint16_t SavedPciConfig::subsystem_device() const { return le16(bytes, 0x2e); }

std::string format_saved_pci_config(const SavedPciConfig& c) {
  std::string out = "# PCI configuration space saved by mst save; mst load writes back its host-assigned registers\n";
  out += "format " + std::string(kFormatName) + " " + std::to_string(kFormatVersion) + "\n";
  out += "address " + c.address.to_string() + "\n";
  out += "vendor " + hex_string(c.vendor(), 4) + "\n";
  out += "device " + hex_string(c.device(), 4) + "\n";
  out += "revision " + hex_string(c.revision(), 2) + "\n";
  out += "class " + hex_string(c.class_code(), 6) + "\n";
  out += "subsystem " + hex_string(c.subsystem_vendor(), 4) + " " + hex_string(c.subsystem_device(), 4) + "\n";
  out += "size " + std::to_string(c.bytes.size()) + "\n";
  for (std::size_t row = 0; row + 16 <= c.bytes.size(); row += 16) {
    out += row_offset(row) + ":";
    for (std::size_t i = 0; i < 16; ++i) out += " " + hex2(c.bytes[row + i]);
    out += "\n";
  }
  return out;
}

Result<SavedPciConfig> parse_saved_pci_config(std::string_view text, std::string_view origin) {
  std::map<std::string, std::string> keys;
  SavedPciConfig c;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    if (auto row = parse_row(line)) {
      if (row->first != c.bytes.size())
        return make_error(bad_line(origin, line_no, "row at offset " + hex_string(row->first) + " where " +
                                                        hex_string(c.bytes.size()) + " was expected"));
      if (c.bytes.size() >= kMaxSavedBytes) return make_error(bad_line(origin, line_no, "more than 4096 bytes"));
      c.bytes.insert(c.bytes.end(), row->second.begin(), row->second.end());
      continue;
    }
    if (!c.bytes.empty()) return make_error(bad_line(origin, line_no, "not a row of 16 hex bytes"));
    const auto space = line.find(' ');
    if (space == std::string_view::npos || space == 0)
      return make_error(bad_line(origin, line_no, "expected 'key value' or a row of bytes"));
    const std::string key(line.substr(0, space));
    if (!keys.emplace(key, std::string(line.substr(space + 1))).second)
      return make_error(bad_line(origin, line_no, "'" + key + "' given twice"));
  }
  if (c.bytes.size() < kMinSavedBytes)
    return make_error(ErrorCode::InvalidImage, std::string(origin) + ": " + std::to_string(c.bytes.size()) +
                                                   " bytes saved, fewer than the 64-byte header");
  const auto address = keys.find("address");
  if (address == keys.end()) return make_error(ErrorCode::InvalidImage, std::string(origin) + ": no 'address' line");
  auto parsed = parse_pci_address(address->second);
  if (!parsed) return make_error(ErrorCode::InvalidImage, std::string(origin) + ": " + parsed.error().message());
  c.address = *parsed;
  OF_TRY(check_keys(keys, c, origin));
  if (keys.size() != 8) return make_error(ErrorCode::InvalidImage, std::string(origin) + ": unknown key lines");
  return c;
}

fs::path saved_pci_config_path(const fs::path& dir, const PciAddress& address) { return dir / address.to_string(); }

Result<fs::path> write_saved_pci_config(const fs::path& dir, const SavedPciConfig& config) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return make_error(ec == std::errc::permission_denied ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "cannot create " + dir.string() + ": " + ec.message());
  const fs::path path = saved_pci_config_path(dir, config.address);
  const std::string text = format_saved_pci_config(config);
  OF_TRY(write_output_file(path.string(), Bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                           "saved PCI configuration"));
  return path;
}

Result<SavedPciConfig> read_saved_pci_config(const fs::path& dir, const PciAddress& address) {
  const fs::path path = saved_pci_config_path(dir, address);
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec)))
    return make_error(ErrorCode::NotFound, "no saved configuration of " + address.to_string() + " in " + dir.string() +
                                               " (mst save writes it)");
  OF_ASSIGN(const auto bytes, read_input_file(path.string(), kMaxSavedFileBytes, "saved PCI configuration"));
  OF_ASSIGN(auto config, parse_saved_pci_config(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                                                path.string()));
  if (config.address != address)
    return make_error(ErrorCode::InvalidImage, path.string() + " holds the configuration of " +
                                                   config.address.to_string() + ", not of " + address.to_string());
  return config;
}

}  // namespace openflint
