// RemoteDeviceName: parses and prints HOST:PORT,DEVICE (MFT's) and ssh:[USER@]HOST[:PORT]/DEVICE remote device names.
#include "mtcr/remote/RemoteDeviceName.h"

#include <algorithm>
#include <limits>

namespace openflint {
namespace {

constexpr char kPathSeparator = '/';
constexpr char kEncodedSeparator = '@';  // how a '/' of the remote device is written

std::string replaced(std::string_view text, char from, char to) {
  std::string out(text);
  std::replace(out.begin(), out.end(), from, to);
  return out;
}

Unexpected malformed_name(std::string_view name, std::string_view why) {
  return make_error(ErrorCode::InvalidArgument,
                    "remote device name '" + std::string(name) + "': " + std::string(why) + " (expected HOST:PORT,DEVICE)");
}

// "[v6]:PORT,..." -> host "v6", rest ":PORT,...". nullopt when the brackets do not close.
struct HostSplit {
  std::string_view host;
  std::string_view rest;  // from the ':' that ends the host
};

std::optional<HostSplit> split_bracketed_host(std::string_view text) {
  const std::size_t close = text.find(']');
  if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') return std::nullopt;
  return HostSplit{text.substr(1, close - 1), text.substr(close + 1)};
}

// "ssh:[USER@]HOST[:PORT]/DEVICE": the host part up to the first '/', the device literally after it.
Result<std::optional<RemoteDeviceName>> parse_ssh_device_name(std::string_view name) {
  const auto malformed_ssh = [name](std::string_view why) {
    return make_error(ErrorCode::InvalidArgument, "remote device name '" + std::string(name) + "': " + std::string(why) +
                                                      " (expected ssh:[USER@]HOST[:PORT]/DEVICE)");
  };
  const std::size_t slash = name.find(kPathSeparator);
  if (slash == std::string_view::npos) return malformed_ssh("no '/DEVICE' after the host");
  auto host = parse_remote_host(name.substr(0, slash));
  if (!host)
    return make_error(ErrorCode::InvalidArgument, "remote device name '" + std::string(name) + "': " + host.error().message());
  const std::string_view device = name.substr(slash + 1);
  if (device.empty()) return malformed_ssh("empty device after the '/'");
  RemoteDeviceName remote;
  remote.server = std::move(*host);
  remote.device = std::string(device);
  return std::optional<RemoteDeviceName>(std::move(remote));
}

}  // namespace

Result<std::optional<RemoteDeviceName>> parse_remote_device_name(std::string_view name) {
  // Before the last '/' is dropped: in the ssh form that '/' is inside DEVICE.
  if (name.starts_with(kSshHostPrefix)) return parse_ssh_device_name(name);
  std::string_view text = name;
  if (const std::size_t slash = text.rfind(kPathSeparator); slash != std::string_view::npos)
    text = text.substr(slash + 1);
  const std::size_t comma = text.find(',');
  HostSplit split;
  if (text.starts_with('[')) {
    auto bracketed = split_bracketed_host(text);
    if (!bracketed) {
      // "[..." with a ',' somewhere: meant as a remote name, but the brackets are wrong.
      if (comma == std::string_view::npos) return std::optional<RemoteDeviceName>{};
      return malformed_name(name, "an IPv6 host in brackets must be followed by ':PORT'");
    }
    split = *bracketed;
    if (split.rest.find(',') == std::string_view::npos) return std::optional<RemoteDeviceName>{};
  } else {
    const std::size_t colon = text.find(':');
    // Both delimiters, ':' first: a BDF has no ',', an in-band name no ':' before its ','.
    if (colon == std::string_view::npos || comma == std::string_view::npos || colon > comma)
      return std::optional<RemoteDeviceName>{};
    split = HostSplit{text.substr(0, colon), text.substr(colon)};
  }
  // split.rest is ":PORT,DEVICE".
  const std::size_t rest_comma = split.rest.find(',');
  const std::string_view port_text = split.rest.substr(1, rest_comma - 1);
  const std::string_view device = split.rest.substr(rest_comma + 1);
  if (split.host.empty()) return malformed_name(name, "empty host");
  if (port_text.empty()) return malformed_name(name, "empty port");
  if (!std::all_of(port_text.begin(), port_text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return malformed_name(name, "port '" + std::string(port_text) + "' is not a decimal number");
  unsigned long port = 0;
  if (port_text.size() <= kMaxPortDigits)  // more digits are out of range anyway; no overflow
    for (char c : port_text) port = port * 10 + static_cast<unsigned long>(c - '0');
  if (port == 0 || port_text.size() > kMaxPortDigits || port > std::numeric_limits<std::uint16_t>::max())
    return malformed_name(name, "port " + std::string(port_text) + " is outside 1..65535");
  if (device.empty()) return malformed_name(name, "empty device after the ','");
  RemoteDeviceName remote;
  remote.server.host = std::string(split.host);
  remote.server.port = static_cast<std::uint16_t>(port);
  remote.device = replaced(device, kEncodedSeparator, kPathSeparator);
  return std::optional<RemoteDeviceName>(std::move(remote));
}

std::string to_string(const RemoteDeviceName& name) {
  if (name.server.transport == RemoteTransport::Ssh) return to_string(name.server) + "/" + name.device;
  const bool ipv6 = name.server.host.find(':') != std::string::npos;
  std::string out = ipv6 ? "[" + name.server.host + "]" : name.server.host;
  out += ":" + std::to_string(name.server.port) + ",";
  out += replaced(name.device, kPathSeparator, kEncodedSeparator);
  return out;
}

}  // namespace openflint
