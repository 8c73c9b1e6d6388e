// NameProtocol: strict parsing and formatting of the name server's messages.
#include "mtcr/remote/NameProtocol.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace openflint {
namespace {

Error bad_request(std::string_view why) { return Error(ErrorCode::InvalidArgument, "bad name request: " + std::string(why)); }
Error bad_entry(std::string_view why) { return Error(ErrorCode::Io, "malformed name-server entry: " + std::string(why)); }

bool printable_token(std::string_view s) {
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return false;
  }
  return !s.empty();
}

std::optional<std::uint64_t> hex_guid(std::string_view s) {
  if (!s.starts_with("0x") || s.size() < 3 || s.size() > 18) return std::nullopt;
  std::uint64_t v = 0;
  const auto* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data() + 2, end, v, 16);
  if (ec != std::errc{} || p != end) return std::nullopt;
  return v;
}

std::optional<std::uint32_t> decimal(std::string_view s, std::uint32_t max) {
  if (s.empty() || s.size() > 5 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  std::uint32_t v = 0;
  const auto* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, v, 10);
  if (ec != std::errc{} || p != end || v > max) return std::nullopt;
  return v;
}

std::vector<std::string_view> split_spaces(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto sp = s.find(' ', start);
    out.push_back(s.substr(start, sp == std::string_view::npos ? std::string_view::npos : sp - start));
    if (sp == std::string_view::npos) break;
    start = sp + 1;
  }
  return out;
}

std::string guid_hex(std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

}  // namespace

Result<void> check_system_name(std::string_view name) {
  if (name.empty()) return make_error(ErrorCode::InvalidArgument, "an empty system name");
  if (name.size() > kNameMaxNameBytes)
    return make_error(ErrorCode::InvalidArgument,
                      "a system name of " + std::to_string(name.size()) + " bytes (at most " + std::to_string(kNameMaxNameBytes) + ")");
  if (!printable_token(name))
    return make_error(ErrorCode::InvalidArgument, "a system name holds only printable ASCII without blanks");
  return {};
}

Result<NameRequest> parse_name_request(std::string_view text) {
  if (text.size() + 1 > kNameMaxRequestBytes)
    return make_error(bad_request("longer than " + std::to_string(kNameMaxRequestBytes - 1) + " bytes"));
  if (text.empty()) return make_error(bad_request("empty"));
  NameRequest r;
  const char letter = text[0];
  const std::string_view rest = text.substr(1);
  switch (letter) {
    case 'V': r.command = NameCommand::Version; break;
    case 'L': r.command = NameCommand::List; break;
    case 'R': r.command = NameCommand::Refresh; break;
    case 'N': r.command = NameCommand::Lookup; break;
    case 'Q': r.command = NameCommand::Query; break;
    default: return make_error(bad_request("unknown command"));
  }
  const bool takes_argument = letter == 'N' || letter == 'Q';
  if (!takes_argument) {
    if (!rest.empty()) return make_error(bad_request(std::string(1, letter) + " takes no argument"));
    return r;
  }
  if (rest.size() < 2 || rest[0] != ' ') return make_error(bad_request(std::string(1, letter) + " takes one argument"));
  const std::string_view arg = rest.substr(1);
  if (letter == 'N') {
    if (auto ok = check_system_name(arg); !ok) return make_error(bad_request(ok.error().message()));
    r.name = std::string(arg);
    return r;
  }
  if (auto guid = hex_guid(arg)) {
    r.by_guid = true;
    r.guid = *guid;
    return r;
  }
  const auto lid = decimal(arg, 0xffff);
  if (!lid || *lid == 0) return make_error(bad_request("Q takes a GUID (0x + 1..16 hex digits) or a LID (1..65535)"));
  r.lid = static_cast<std::uint16_t>(*lid);
  return r;
}

std::string format_name_request(const NameRequest& request) {
  std::string out(1, static_cast<char>(request.command));
  if (request.command == NameCommand::Lookup) out += " " + request.name;
  if (request.command == NameCommand::Query)
    out += " " + (request.by_guid ? guid_hex(request.guid) : std::to_string(request.lid));
  return out;
}

std::string format_name_entry(const NameEntry& entry) {
  return entry.name + " " + guid_hex(entry.guid) + " " + std::to_string(entry.lid) + " " + entry.device + " " +
         (entry.remote.empty() ? "-" : entry.remote);
}

Result<NameEntry> parse_name_entry(std::string_view text) {
  if (text.size() > kNameMaxReplyBytes) return make_error(bad_entry("too long"));
  const auto fields = split_spaces(text);
  if (fields.size() != 5) return make_error(bad_entry("expected 5 fields"));
  for (const auto f : fields)
    if (!printable_token(f)) return make_error(bad_entry("an empty or unprintable field"));
  NameEntry e;
  if (!check_system_name(fields[0])) return make_error(bad_entry("the name"));
  e.name = std::string(fields[0]);
  const auto guid = hex_guid(fields[1]);
  const auto lid = fields[2] == "0" ? std::optional<std::uint32_t>(0) : decimal(fields[2], 0xffff);
  if (!guid || !lid) return make_error(bad_entry("the GUID or LID"));
  e.guid = *guid;
  e.lid = static_cast<std::uint16_t>(*lid);
  if (fields[3].size() > kNameMaxDeviceBytes || fields[4].size() > kNameMaxDeviceBytes) return make_error(bad_entry("a device name"));
  e.device = std::string(fields[3]);
  if (fields[4] != "-") e.remote = std::string(fields[4]);
  return e;
}

}  // namespace openflint
