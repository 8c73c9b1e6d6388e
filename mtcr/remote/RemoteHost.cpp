// RemoteHost: parses and prints HOST[:PORT] and ssh:[USER@]HOST[:PORT].
#include "mtcr/remote/RemoteHost.h"

#include <algorithm>
#include <optional>

namespace openflint {
namespace {


Unexpected malformed_host(std::string_view text, std::string_view why) {
  return make_error(ErrorCode::InvalidArgument, "remote host '" + std::string(text) + "': " + std::string(why) +
                                                    " (expected HOST[:PORT] or ssh:[USER@]HOST[:PORT])");
}

// Decimal 1..65535; nullopt otherwise (no overflow for any length).
std::optional<std::uint16_t> port_number(std::string_view digits) {
  if (digits.empty() || digits.size() > kMaxPortDigits) return std::nullopt;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  unsigned long value = 0;
  for (char c : digits) value = value * 10 + static_cast<unsigned long>(c - '0');
  if (value == 0 || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

}  // namespace

Result<RemoteHost> parse_remote_host(std::string_view text) {
  RemoteHost out;
  std::string_view rest = text;
  if (rest.starts_with(kSshHostPrefix)) {
    out.transport = RemoteTransport::Ssh;
    rest.remove_prefix(kSshHostPrefix.size());
    if (const std::size_t at = rest.find('@'); at != std::string_view::npos) {
      out.user = std::string(rest.substr(0, at));
      if (out.user.empty()) return malformed_host(text, "empty user before '@'");
      rest.remove_prefix(at + 1);
    }
  }
  std::string_view host;
  std::string_view port_text;
  bool has_port = false;
  if (rest.starts_with('[')) {
    const std::size_t close = rest.find(']');
    if (close == std::string_view::npos) return malformed_host(text, "'[' without ']'");
    host = rest.substr(1, close - 1);
    const std::string_view after = rest.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return malformed_host(text, "only ':PORT' may follow ']'");
      has_port = true;
      port_text = after.substr(1);
    }
  } else {
    const std::size_t colon = rest.find(':');
    if (colon != std::string_view::npos && rest.find(':', colon + 1) != std::string_view::npos)
      return malformed_host(text, "an IPv6 address must be written in brackets");
    host = rest.substr(0, colon);
    if (colon != std::string_view::npos) {
      has_port = true;
      port_text = rest.substr(colon + 1);
    }
  }
  if (host.empty()) return malformed_host(text, "empty host");
  if (host.find_first_of(" \t/,@") != std::string_view::npos) return malformed_host(text, "the host holds ' ', '/', ',' or '@'");
  out.host = std::string(host);
  if (has_port) {
    const auto port = port_number(port_text);
    if (!port) return malformed_host(text, "port '" + std::string(port_text) + "' is not a number in 1..65535");
    out.port = *port;
  } else if (out.transport == RemoteTransport::Tcp) {
    out.port = kDefaultBusPort;
  }
  return out;
}

std::string to_string(const RemoteHost& host) {
  std::string out = host.transport == RemoteTransport::Ssh ? std::string(kSshHostPrefix) : std::string();
  if (!host.user.empty()) out += host.user + "@";
  const bool ipv6 = host.host.find(':') != std::string::npos;
  out += ipv6 ? "[" + host.host + "]" : host.host;
  if (host.port != 0) out += ":" + std::to_string(host.port);
  return out;
}

}  // namespace openflint
