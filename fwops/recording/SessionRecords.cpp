// SessionRecords: the line encodings of a session file's records.
#include "fwops/recording/SessionRecords.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "core/HexString.h"

namespace openflint::session_records {
namespace {

using nlohmann::json;

void append_hex(std::string& out, std::uint64_t value) {
  char buffer[17];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, 16);
  (void)ec;  // 17 characters hold any 64-bit value
  out.append(buffer, end);
}

template <typename T>
Result<T> parse_hex(std::string_view text, std::string_view what) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return make_error(ErrorCode::InvalidImage, "bad " + std::string(what) + " '" + escape(text.substr(0, 40)) + "'");
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

json uids_json(const std::optional<UidRange>& range) {
  if (!range) return nullptr;
  return json{range->base, range->count};
}

std::optional<UidRange> uids_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return UidRange{j.at(0).get<std::uint64_t>(), j.at(1).get<std::uint32_t>()};
}

json query_json(const ImageQuery& q) {
  json j{{"format", std::string(to_string(q.format))},
         {"image_start", q.image_start},
         {"failsafe", q.failsafe},
         {"psid", q.psid},
         {"description", q.description},
         {"product_version", q.product_version},
         {"name", q.name},
         {"image_vsd", q.image_vsd},
         {"device_vsd", q.device_vsd},
         {"supported_hw_ids", q.supported_hw_ids},
         {"base_guid", uids_json(q.base_guid)},
         {"base_mac", uids_json(q.base_mac)},
         {"uids", q.uids},
         {"image_size", q.image_size},
         {"mcc_enabled", q.mcc_enabled}};
  j["fw_version"] = q.fw_version ? json{q.fw_version->major, q.fw_version->minor, q.fw_version->subminor} : json();
  j["release_date"] = q.release_date ? json{q.release_date->year, q.release_date->month, q.release_date->day} : json();
  j["issu_version"] = q.issu_version ? json(*q.issu_version) : json();
  j["pci_vendor_id"] = q.pci_vendor_id ? json(*q.pci_vendor_id) : json();
  j["pci_device_id"] = q.pci_device_id ? json(*q.pci_device_id) : json();
  j["security_version"] = q.security_version ? json(*q.security_version) : json();
  return j;
}

template <typename T>
std::optional<T> optional_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<T>();
}

// Throws nlohmann's exceptions on a missing or mistyped member (parse_running catches them).
ImageQuery query_from(const json& j) {
  ImageQuery q;
  const std::string format = j.at("format").get<std::string>();
  bool known = false;
  for (ImageFormat each : {ImageFormat::Fs1, ImageFormat::Fs2, ImageFormat::Fs3, ImageFormat::Fs4}) {
    if (to_string(each) != format) continue;
    q.format = each;
    known = true;
  }
  if (!known) throw std::invalid_argument("unknown image format " + format);
  q.image_start = j.at("image_start").get<std::uint64_t>();
  q.failsafe = j.at("failsafe").get<bool>();
  q.psid = j.at("psid").get<std::string>();
  q.description = j.at("description").get<std::string>();
  q.product_version = j.at("product_version").get<std::string>();
  q.name = j.at("name").get<std::string>();
  q.image_vsd = j.at("image_vsd").get<std::string>();
  q.device_vsd = j.at("device_vsd").get<std::string>();
  q.supported_hw_ids = j.at("supported_hw_ids").get<std::vector<std::uint32_t>>();
  q.base_guid = uids_from(j.at("base_guid"));
  q.base_mac = uids_from(j.at("base_mac"));
  q.uids = j.at("uids").get<std::vector<std::uint64_t>>();
  q.image_size = j.at("image_size").get<std::uint64_t>();
  q.mcc_enabled = j.at("mcc_enabled").get<bool>();
  if (const json& v = j.at("fw_version"); !v.is_null())
    q.fw_version = FwVersion{v.at(0).get<std::uint16_t>(), v.at(1).get<std::uint16_t>(), v.at(2).get<std::uint16_t>()};
  if (const json& v = j.at("release_date"); !v.is_null())
    q.release_date = ReleaseDate{v.at(0).get<std::uint16_t>(), v.at(1).get<std::uint8_t>(), v.at(2).get<std::uint8_t>()};
  q.issu_version = optional_from<std::uint32_t>(j.at("issu_version"));
  q.pci_vendor_id = optional_from<std::uint16_t>(j.at("pci_vendor_id"));
  q.pci_device_id = optional_from<std::uint16_t>(j.at("pci_device_id"));
  q.security_version = optional_from<std::uint32_t>(j.at("security_version"));
  return q;
}

// An error code as a record names it: core/Error.h's text with '-' for ' ' ("not-supported").
std::string code_name(ErrorCode code) {
  std::string name(to_string(code));
  for (char& c : name)
    if (c == ' ') c = '-';
  return name;
}

}  // namespace

std::string words(std::span<const std::uint32_t> values) {
  std::string out;
  out.reserve(values.size() * 9);
  for (std::uint32_t v : values) {
    if (!out.empty()) out += ' ';
    append_hex(out, v);
  }
  return out.empty() ? "-" : out;
}

Result<std::vector<std::uint32_t>> parse_words(std::string_view text) {
  std::vector<std::uint32_t> out;
  if (text == "-") return out;
  for (std::string_view part : split(text, ' ')) {
    OF_ASSIGN(std::uint32_t v, parse_hex<std::uint32_t>(part, "word"));
    out.push_back(v);
  }
  return out;
}

std::string bytes(std::span<const std::uint8_t> data) { return data.empty() ? "-" : hex_digits(data); }

std::string hex(std::uint64_t value) {
  std::string out;
  append_hex(out, value);
  return out;
}

Result<std::vector<std::uint8_t>> parse_bytes(std::string_view text) {
  std::vector<std::uint8_t> out;
  if (text == "-") return out;
  if (text.size() % 2 != 0) return make_error(ErrorCode::InvalidImage, "bad bytes: an odd number of hex digits");
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    OF_ASSIGN(std::uint8_t b, parse_hex<std::uint8_t>(text.substr(i, 2), "byte"));
    out.push_back(b);
  }
  return out;
}

std::string writes(std::span<const RegisterWrite> sequence) {
  std::string out;
  for (const RegisterWrite& w : sequence) {
    if (!out.empty()) out += ' ';
    append_hex(out, w.address);
    out += ':';
    append_hex(out, w.value);
  }
  return out.empty() ? "-" : out;
}

std::string tlv(const AccessRegisterTlv& t) {
  std::string out;
  append_hex(out, t.register_id);
  out += '.';
  append_hex(out, t.method);
  out += '.';
  append_hex(out, t.status);
  out += '.';
  append_hex(out, t.tid);
  out += '.';
  out += bytes(t.data);
  return out;
}

Result<AccessRegisterTlv> parse_tlv(std::string_view text) {
  const std::vector<std::string_view> parts = split(text, '.');
  if (parts.size() != 5) return make_error(ErrorCode::InvalidImage, "bad register access '" + escape(text.substr(0, 40)) + "'");
  AccessRegisterTlv t;
  OF_ASSIGN(t.register_id, parse_hex<std::uint16_t>(parts[0], "register id"));
  OF_ASSIGN(t.method, parse_hex<std::uint8_t>(parts[1], "method"));
  OF_ASSIGN(t.status, parse_hex<std::uint8_t>(parts[2], "status"));
  OF_ASSIGN(t.tid, parse_hex<std::uint64_t>(parts[3], "transaction id"));
  OF_ASSIGN(t.data, parse_bytes(parts[4]));
  return t;
}

std::string running(const std::optional<RunningFirmware>& firmware) {
  if (!firmware) return "none";
  json j{{"recovery", firmware->recovery},
         {"booted_copy", firmware->booted_copy ? json(*firmware->booted_copy) : json()},
         {"image", firmware->image ? query_json(*firmware->image) : json()}};
  return j.dump();
}

Result<std::optional<RunningFirmware>> parse_running(std::string_view text) {
  if (text == "none") return std::optional<RunningFirmware>{};
  try {
    const json j = json::parse(text);
    RunningFirmware firmware;
    firmware.recovery = j.at("recovery").get<bool>();
    firmware.booted_copy = optional_from<std::uint64_t>(j.at("booted_copy"));
    if (const json& image = j.at("image"); !image.is_null()) firmware.image = query_from(image);
    return std::optional<RunningFirmware>(std::move(firmware));
  } catch (const std::exception& e) {
    return make_error(ErrorCode::InvalidImage, std::string("bad running firmware: ") + e.what());
  }
}

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\n') out += "%0A";
    else if (c == '\r') out += "%0D";
    else out += c;
  }
  return out;
}

std::string unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::string_view rest = text.substr(i);
    if (rest.starts_with("%25")) out += '%';
    else if (rest.starts_with("%0A")) out += '\n';
    else if (rest.starts_with("%0D")) out += '\r';
    else if (rest.starts_with("%20")) out += ' ';
    else {
      out += text[i];
      continue;
    }
    i += 2;
  }
  return out;
}

std::string field(std::string_view text) {
  std::string out;
  for (char c : escape(text)) {
    if (c == ' ') out += "%20";
    else out += c;
  }
  return out;
}

std::string answered(std::string_view request, std::string_view answer) {
  std::string out(request);
  out += " =";
  if (!answer.empty()) {
    out += ' ';
    out += answer;
  }
  return out;
}

std::string failed(std::string_view request, const Error& error) {
  std::string out(request);
  out += " ! ";
  out += code_name(error.code());
  out += ' ';
  out += escape(error.message());
  return out;
}

Result<std::string_view> decode(std::string_view answer) {
  if (answer == " =") return std::string_view{};
  if (answer.starts_with(" = ")) return answer.substr(3);
  if (answer.starts_with(" ! ")) {
    const std::string_view rest = answer.substr(3);
    const std::size_t space = rest.find(' ');
    const std::string_view name = rest.substr(0, space);
    for (int code = 0; code <= static_cast<int>(ErrorCode::Internal); ++code) {
      if (code_name(static_cast<ErrorCode>(code)) != name) continue;
      return make_error(static_cast<ErrorCode>(code),
                        unescape(space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1)));
    }
  }
  return make_error(ErrorCode::InvalidImage, "bad answer '" + escape(answer.substr(0, 40)) + "'");
}

}  // namespace openflint::session_records
